import { z } from "zod";

/** Refund endpoints (spec 11–14, API.md §7). */
export const RefundStatus = z.enum(["pending", "approved", "rejected", "processing", "completed", "failed"]);

export const RefundRecord = z.object({
  id: z.string(),
  transaction_uuid: z.string(),
  checkout_id: z.number().int(),
  amount: z.number(),
  currency: z.string(),
  status: RefundStatus,
  reason: z.string().nullable(),
  refund_transaction_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ConsumerRefundRequestBody = z.object({
  transaction_uuid: z.string().min(1).max(64),
  reason: z.string().max(1000).optional(),
});
export const RefundAnswer = z.object({ message: z.string(), refund: RefundRecord });
export const ConsumerRefundListResponse = z.array(RefundRecord);

/** `Approved` / `Rejected` in any letter case, stored lowercase. */
export const MerchantRefundDecisionBody = z.object({
  id: z.string().min(1).max(64),
  status: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(["approved", "rejected"])),
});

export const InitiateRefundBody = z.object({
  id: z.string().min(1).max(64),
  status: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.literal("approved"))
    .optional(),
});
