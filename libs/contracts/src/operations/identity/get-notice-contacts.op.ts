import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (notices, on its own account): what a notice says of the merchant, and whether the
 * consumer has a verified phone (masked: the number itself never leaves identity).
 */
export const getNoticeContactsOp = defineOperation(
  "identity.getNoticeContacts",
  z.object({ merchant_id: z.string().min(1).max(64), user_id: z.string().min(1).max(64) }),
  z.object({
    merchant: z.object({ name: z.string(), support_email: z.string().nullable(), support_phone: z.string().nullable() }),
    /** The consumer's verified phone, masked; null when the user is unknown. */
    phone_masked: z.string().nullable(),
  }),
  { reads: true },
);
