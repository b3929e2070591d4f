import { z } from "zod";

/** Refund endpoints (spec 11–14, API.md §7). */
export const RefundStatus = z.enum(["pending", "approved", "rejected", "processing", "completed", "failed"]);
export type RefundStatus = z.infer<typeof RefundStatus>;

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
export type RefundRecord = z.infer<typeof RefundRecord>;

export const ConsumerRefundRequestBody = z.object({
  transaction_uuid: z.string().min(1).max(64),
  reason: z.string().max(1000).optional(),
});
export const RefundAnswer = z.object({ message: z.string(), refund: RefundRecord });
export const ConsumerRefundListResponse = z.array(RefundRecord);
/** Consumer Refund List: newest first, at most `limit` (1–100, default 100) records. */
export const ConsumerRefundListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) });

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
