import { AppError } from "@payrail/contracts";
import { EventCannotApply, type EventTransport, type SubscribeOptions } from "@payrail/messaging";
import { createProcessedEvents, type Store } from "@payrail/store";
import { applyPayoutOutcome, PayoutOutcomeRefused } from "../../domain/apply-payout-outcome.use-case.ts";
import { stopReturnedRefunds } from "../../domain/stop-returned-refunds.use-case.ts";
import type { RefundsDeps } from "../rpc/deps.ts";

/**
 * The refunds service's event entry point: payments' refund_payout.settled moves the refund
 * (`processing` → `completed` | `failed`), and transaction.returned stops the refunds of a
 * payment the bank took back, once per event id, by conditional writes on the refund's status
 * and payout attempt, so redelivered and late events change nothing. A payout of a refund this
 * service never had can never apply (refunds asks for every payout): it is dead-lettered at
 * once (`EventCannotApply`); any other failure is retried.
 */
export async function subscribeRefundsEvents(transport: EventTransport, store: Store, deps: RefundsDeps, options?: SubscribeOptions): Promise<void> {
  const processed = await createProcessedEvents(store, "refunds");
  await transport.subscribe(
    "refunds",
    ["refund_payout.settled", "transaction.returned"],
    async (event) => {
      const meta = { requestId: event.id, principal: { kind: "service" as const, service: "payments" } };
      if (event.type === "refund_payout.settled") {
        await processed.applyOnce(event.id, async () => {
          await applyPayoutOutcome(deps, meta, event.data.object).catch((err: unknown) => {
            if ((err instanceof AppError && err.code === "refund_not_found") || err instanceof PayoutOutcomeRefused) throw new EventCannotApply(err.message, { cause: err });
            throw err;
          });
        });
      } else if (event.type === "transaction.returned") {
        const record = event.data.object;
        const reason = typeof record["failure_reason"] === "string" ? record["failure_reason"] : "The payment was returned by the bank";
        await processed.applyOnce(event.id, async () => {
          await stopReturnedRefunds(deps, meta, record.transaction_uuid, `The payment was returned by the bank: ${reason}`);
        });
      }
    },
    options,
  );
}
