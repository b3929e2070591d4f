import { z } from "zod";

/** Get Processor Token (spec 8, docs/api-notes.md, Moving money). */
export const GetProcessorTokenBody = z.object({ checkout_id: z.string().min(1).max(64) });
export const GetProcessorTokenResponse = z.object({
  message: z.string(),
  transaction_uuid: z.string(),
  transaction_id: z.string(),
  /** Set when a risk rule held the debit for the merchant's review: no transfer yet (`transaction_id` is empty). */
  transaction_status: z.literal("in_review").optional(),
  review_id: z.string().optional(),
});

/** `returned`: it had settled (`completed`), then the bank sent the debit back (docs/api-notes.md, Returns and blocked bank accounts). */
/** `in_review`: a risk rule held the debit before any transfer (docs/decisions/0010-fraud-monitoring.md). */
export const TransactionStatus = z.enum(["pending", "completed", "failed", "cancelled", "returned", "in_review"]);

/** The specification's subscription transaction log record. */
export const TransactionRecord = z.object({
  id: z.number().int(),
  transaction_uuid: z.string(),
  processor_transaction_id: z.string(),
  amount: z.number(),
  user_id: z.string(),
  consumer_transaction_id: z.string(),
  merchant_transaction_id: z.string(),
  checkout_id: z.number().int(),
  /** The checkout's id (`chk_…`): `checkout_id` is its number here, as the specification fixes. */
  checkout: z.string(),
  transaction_status: TransactionStatus,
  transaction_date_time: z.string(),
  description: z.string().nullable(),
  /** NACHA's company entry description the debit carries: `PURCHASE`, `RETRY PYMT` or the merchant's descriptor; null on records older than it. */
  company_entry_description: z.string().nullable(),
  error: z.string().nullable(),
  /** The fraud review that held the debit (`rev_…`), on a debit a risk rule flagged. */
  review_id: z.string().optional(),
  /** A failed or returned transfer's ACH return code (or `cancelled`) and its meaning (docs/api-notes.md, Returns and blocked bank accounts). */
  failure_code: z.string().optional(),
  failure_reason: z.string().optional(),
  /** When Payrail learnt that the settled transfer came back (`returned` only). */
  returned_at: z.string().optional(),
  /** What refunds have sent back of it so far (completed refund transfers), in major units. */
  amount_refunded: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type TransactionRecord = z.infer<typeof TransactionRecord>;

export const SubscriptionDetailsQuery = z.object({
  checkout_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
export const SubscriptionDetailsResponse = z.array(TransactionRecord);

export const SubscriptionCancelBody = z.object({ subscription_transaction_uuid: z.string().min(1).max(64) });

export const SimulateTransferBody = z.object({
  status: z.enum(["completed", "failed"]),
  failure_code: z.string().regex(/^R\d{2}$/).optional(),
});
