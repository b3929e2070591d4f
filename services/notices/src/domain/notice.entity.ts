import type { Notice, NoticeChannel, NoticeStatus, NoticeType, SandboxNotice } from "@payrail/contracts";
import { runScopedHexId } from "@payrail/runtime";
import type { MerchantContact } from "./ports/contacts.port.ts";

/**
 * One notice to one consumer on one channel. Its id derives from its cause (the event's id and
 * the channel), so the same event handled twice finds its notice already written. `dueAt` is
 * when the next attempt may start; a worker claims it by moving `dueAt` to the end of its lease
 * in one conditional write (as webhook deliveries are claimed). A new notice is written already
 * claimed by the process that wrote it, which sends it at once.
 */
export interface NoticeDoc {
  _id: string;
  merchantId: string;
  livemode: boolean;
  /** The domain event that caused it. */
  eventId: string;
  type: NoticeType;
  channel: NoticeChannel;
  /** The recipient as shown: masked. */
  to: string;
  /** Where it goes: the email address, or for SMS the user id (identity holds the number). */
  address: string;
  checkoutId: string;
  transactionUuid: string | null;
  subject: string;
  /** What it says: the SMS, or the plain-text part of the email. */
  body: string;
  /** The email's HTML part; null for SMS. */
  html: string | null;
  /** Optional notices (receipts, reminders of unchanged renewals) carry an unsubscribe link and are not sent after an opt-out. */
  optional: boolean;
  /** An optional email's unsubscribe link (its footer and `List-Unsubscribe`); null otherwise. */
  unsubscribeUrl?: string | null;
  status: NoticeStatus;
  /** Attempts made so far. */
  attempts: number;
  dueAt: string;
  /** The claim of the worker on it now (null when none holds it). */
  leaseId: string | null;
  lastError: string | null;
  providerMessageId: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The consumer (identity's user id): opt-outs and the portal's receipts find them by it. Absent on notices written before it was kept. */
  userId?: string;
  /** The merchant as the notice named it (made safe), which the portal shows beside the words. */
  merchant?: MerchantContact;
  /**
   * The notice the consumer portal shows for its cause: the first channel's (SMS whenever the
   * consumer has a phone). The other channel's copy is found by its derived id.
   */
  portalCopy?: boolean;
}

/** The notice id of a cause: the same event and channel always give the same id. */
export function noticeId(eventId: string, channel: NoticeChannel): string {
  return runScopedHexId("ntc_", `${eventId}:${channel}`);
}

export function toNotice(doc: NoticeDoc): Notice {
  return {
    id: doc._id,
    type: doc.type,
    channel: doc.channel,
    to: doc.to,
    checkout_id: doc.checkoutId,
    transaction_uuid: doc.transactionUuid,
    status: doc.status,
    created_at: doc.createdAt,
    sent_at: doc.sentAt,
  };
}

export function toSandboxNotice(doc: NoticeDoc): SandboxNotice {
  return { ...toNotice(doc), body: doc.body };
}
