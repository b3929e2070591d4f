import { reachesMerchant, type ConsumerReceiptSummary, type UserPrincipal } from "@payrail/contracts";
import type { NoticeDoc } from "./notice.entity.ts";

/**
 * Whether `doc` is a receipt the consumer may read: a `payment_receipt` sent to them, the copy
 * the portal shows of its cause, and (for a sandbox token) of the token's merchant. Anything
 * else answers as an unknown id does.
 */
export function isReceiptOf(doc: NoticeDoc | null, user: UserPrincipal): doc is NoticeDoc {
  return doc !== null && doc.type === "payment_receipt" && doc.portalCopy === true && doc.userId === user.userId && reachesMerchant(user, doc.merchantId);
}

export function toReceiptSummary(doc: NoticeDoc): ConsumerReceiptSummary {
  const merchant = doc.merchant ?? { name: "", supportEmail: null, supportPhone: null };
  return {
    id: doc._id,
    subject: doc.subject,
    merchant: { name: merchant.name, support_email: merchant.supportEmail, support_phone: merchant.supportPhone },
    transaction_uuid: doc.transactionUuid,
    created_at: doc.createdAt,
  };
}
