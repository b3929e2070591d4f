import { z } from "zod";
import { CheckoutStatus, PLAN_TYPES } from "../../http/checkout.schema.ts";
import { TransactionPurpose } from "../../http/merchant-profile.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** What the payments service needs to know about a checkout to link a bank account to it. */
export const CheckoutSummary = z.object({
  id: z.string(),
  /** The sequential checkout number (`checkout_id` of transaction records). */
  number: z.number().int(),
  merchant_id: z.string(),
  status: CheckoutStatus,
  /** Order total in integer cents (every HTTP `amount` is a decimal; this one is not). */
  amount_cents: z.number().int(),
  currency: z.string(),
  is_subscription: z.boolean(),
  /** A subscription's renewal period (docs/api-notes.md, The checkout); null for a one-off payment. */
  plan_type: z.enum(PLAN_TYPES).nullable().optional(),
  /** What the debit pays for, as Create Checkout was given it; null: the merchant profile's default. */
  transaction_purpose: TransactionPurpose.nullable().optional(),
});
export type CheckoutSummary = z.infer<typeof CheckoutSummary>;

/**
 * Checks a merchant link token (the consumer's `link-token` header) against the checkout it is
 * presented for, on behalf of a consumer. Unknown: 401 `link_token_invalid`; expired: 401
 * `link_token_expired`; generated for another checkout: 403 `link_token_mismatch`. Without
 * `checkout_id`, the checkout is the one the token was generated for (the consumer's
 * micro-deposit routes name no checkout).
 */
export const verifyLinkTokenOp = defineOperation(
  "checkout.verifyLinkToken",
  z.object({ checkout_id: z.string().min(1).max(64).optional(), link_token: z.string().min(1).max(512) }),
  CheckoutSummary,
  { reads: true },
);
