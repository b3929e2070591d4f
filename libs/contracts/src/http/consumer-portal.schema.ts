import { z } from "zod";
import { MandateType } from "./mandate.schema.ts";
import { TransactionStatus } from "./payments.schema.ts";

/*
 * What the consumer portal (docs/api-notes.md, The hosted page, the dashboard and the portal) reads besides the specification's routes: a consumer's
 * subscriptions (also `GET /api/consumers/subscriptions`) and payments across merchants, each a
 * page of a list newest first with an opaque cursor for the next page.
 */

/** A page's cursor: the position of its last item, opaque to clients (digits today). */
const Cursor = z.string().regex(/^\d{1,15}$/, "must be a next_cursor of an earlier page");

export const ConsumerListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: Cursor.optional().describe("The `next_cursor` of the previous page: answer the items after it"),
});
export type ConsumerListQuery = z.infer<typeof ConsumerListQuery>;

/** What a subscription is now: `incomplete` until its first charge settles (Stripe's word). */
export const ConsumerSubscriptionStatus = z.enum(["incomplete", "active", "past_due", "unpaid", "cancelled"]);

export const ConsumerSubscription = z.object({
  checkout_id: z.string(),
  /** Its first charge's record: what Subscription Cancel names. */
  subscription_transaction_uuid: z.string(),
  merchant_name: z.string(),
  status: ConsumerSubscriptionStatus,
  /** Each charge, in major units. */
  amount: z.number(),
  currency: z.string(),
  interval: z.string().describe("How often it is charged: the checkout's `plan_type` (daily, weekly, monthly, quarterly, yearly)"),
  next_charge_at: z.string().nullable(),
  mandate_id: z.string().nullable(),
  bank_account: z
    .object({
      institution: z.string().nullable().describe("The bank's name, when the bank-data provider gave it"),
      mask: z.string().nullable(),
      blocked: z.boolean().describe("Whether this account is blocked for debits after an ACH return: link another one"),
    })
    .describe("The bank account the subscription draws on now"),
});
export type ConsumerSubscription = z.infer<typeof ConsumerSubscription>;

const NextCursor = z.string().nullable().describe("Where the next page starts (send it as `cursor`), or null on the last page");

export const ConsumerSubscriptionList = z.object({
  data: z.array(ConsumerSubscription),
  has_more: z.boolean(),
  next_cursor: NextCursor,
});

/** One transaction record as the portal lists it: with its merchant's name and checkout. */
export const ConsumerPayment = z.object({
  transaction_uuid: z.string(),
  checkout_id: z.string(),
  merchant_name: z.string(),
  amount: z.number(),
  amount_refunded: z.number(),
  currency: z.string(),
  status: TransactionStatus,
  is_subscription: z.boolean(),
  /** When the charge was made (a renewal's: its period's date). */
  date: z.string(),
  failure_reason: z.string().nullable(),
});
export type ConsumerPayment = z.infer<typeof ConsumerPayment>;

export const ConsumerPaymentList = z.object({
  data: z.array(ConsumerPayment),
  has_more: z.boolean(),
  next_cursor: NextCursor,
});

/** A subscription's mandate with the words the consumer accepted (re-rendered from what it records). */
export const SubscriptionMandate = z.object({
  mandate_id: z.string(),
  type: MandateType,
  status: z.enum(["active", "revoked"]),
  accepted_at: z.string(),
  revoked_at: z.string().nullable(),
  text_version: z.string().nullable(),
  /** Null for a merchant-attested mandate: the consumer was shown no text of ours. */
  text: z.string().nullable(),
});
export type SubscriptionMandate = z.infer<typeof SubscriptionMandate>;
