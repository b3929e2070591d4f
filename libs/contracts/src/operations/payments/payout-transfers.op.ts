import { z } from "zod";
import { PayoutTransferSnapshot } from "../../events/payout-transfer-settled.event.ts";
import { SimulateTransferBody } from "../../http/payments.schema.ts";
import { PayoutId } from "../../http/payouts.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (ledger → payments): sends payout `payout_id` of merchant `merchant_id` from its funding
 * source at the provider to its bank, at most once however often it is asked: the payout id is
 * the provider's idempotency key, and the record is written before the provider is asked. A
 * provider that refuses the transfer for good answers `failed` with its code and reason (so does
 * a merchant with no bank to pay to, `payout_funding_source_missing`). Service principals only.
 */
export const createPayoutOp = defineOperation(
  "payments.createPayout",
  z.object({
    payout_id: PayoutId,
    merchant_id: z.string().min(1).max(255),
    amount_cents: z.number().int().positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
  z.discriminatedUnion("status", [
    z.object({ status: z.literal("pending"), transfer_id: z.string() }),
    z.object({ status: z.literal("failed"), failure_code: z.string(), failure_reason: z.string() }),
  ]),
);

/**
 * Sandbox only, for the calling merchant: moves its payout's pending sandbox transfer to completed
 * or failed, then settles it through the provider-webhook path (payout_transfer.settled, which the
 * ledger follows: the payout becomes `paid` or `failed`). Answers the transfer's outcome.
 */
export const simulatePayoutOp = defineOperation("payments.simulatePayout", SimulateTransferBody.extend({ payout_id: PayoutId }), PayoutTransferSnapshot);
