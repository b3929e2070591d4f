import { z } from "zod";
import { DateBound } from "./books.schema.ts";
import { AmountFilters } from "./amount-filters.schema.ts";
import { DecimalAmount, toCents } from "./money.schema.ts";

/** Refund endpoints (spec 11–14, docs/api-notes.md, Refunds). */
export const RefundStatus = z.enum(["pending", "approved", "rejected", "processing", "completed", "failed"]);
export type RefundStatus = z.infer<typeof RefundStatus>;

export const RefundRecord = z.object({
  id: z.string(),
  transaction_uuid: z.string(),
  checkout_id: z.number().int(),
  /** The checkout's id (`chk_…`); `checkout_id` is its number, as on the transaction record refunded. */
  checkout: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: RefundStatus,
  reason: z.string().nullable(),
  refund_transaction_id: z.string().nullable(),
  /** Why the last payout failed: the provider's code (an ACH return code such as R01, or its refusal code). */
  failure_code: z.string().nullable(),
  failure_reason: z.string().nullable(),
  over_returned_at: z
    .string()
    .nullable()
    .describe("When Payrail learnt that this paid refund's payment was also returned by the consumer's bank, so the consumer got the money twice (a `refund.over_returned` event); null otherwise"),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RefundRecord = z.infer<typeof RefundRecord>;

export const ConsumerRefundRequestBody = z.object({
  transaction_uuid: z.string().min(1).max(64),
  reason: z.string().max(1000).optional(),
  /** A decimal like Create Checkout's amounts; absent, whatever of the transaction is still refundable. */
  amount: DecimalAmount.refine((v) => (toCents(v) ?? 0) > 0, { message: "must be greater than 0", params: { code: "amount_invalid" } }).optional(),
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

const REFUND_ID_PATTERN = /^rfd_[0-9a-f]{32}$/;

/** Merchant refunds (docs/api-notes.md, Refunds): newest first, filtered by status or transaction, Stripe's paging. */
export const MerchantRefundListQuery = z.object({
  status: RefundStatus.optional(),
  transaction_uuid: z.string().min(1).max(64).optional(),
  from: DateBound.optional().describe("Only refunds requested at or after this (a date or an ISO 8601 time)"),
  to: DateBound.optional().describe("Only refunds requested before this (a date or an ISO 8601 time)"),
  ...AmountFilters.shape,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.string().regex(REFUND_ID_PATTERN, "must be a refund id").optional(),
});
export const MerchantRefundListResponse = z.object({ data: z.array(RefundRecord), has_more: z.boolean() });
export const RefundIdParam = z.object({ id: z.string().min(1).max(64) });
