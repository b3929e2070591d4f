import { AppError } from "@payrail/contracts";
import { EventCannotApply, type EventTransport, type SubscribeOptions } from "@payrail/messaging";
import { createProcessedEvents, type Store } from "@payrail/store";
import { applyPayoutOutcome } from "../../domain/apply-payout-outcome.use-case.ts";
import type { RefundsDeps } from "../rpc/deps.ts";

/**
 * The refunds service's event entry point: payments' refund_payout.settled moves the refund
 * (`processing` → `completed` | `failed`), once per event id, by a conditional write on the
 * refund's status and payout attempt, so redelivered and late events change nothing. A payout
 * of a refund this service never had can never apply (refunds asks for every payout): it is
 * dead-lettered at once (`EventCannotApply`); any other failure is retried.
 */
export async function subscribeRefundsEvents(transport: EventTransport, store: Store, deps: RefundsDeps, options?: SubscribeOptions): Promise<void> {
  const processed = await createProcessedEvents(store, "refunds");
  await transport.subscribe(
    "refunds",
    ["refund_payout.settled"],
    async (event) => {
      if (event.type !== "refund_payout.settled") return;
      const meta = { requestId: event.id, principal: { kind: "service" as const, service: "payments" } };
      await processed.applyOnce(event.id, async () => {
        await applyPayoutOutcome(deps, meta, event.data.object).catch((err: unknown) => {
          if (err instanceof AppError && err.code === "refund_not_found") throw new EventCannotApply(err.message, { cause: err });
          throw err;
        });
      });
    },
    options,
  );
}
