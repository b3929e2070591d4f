import type { Store } from "@payrail/store";
import { storeWithFaults, type StoreWrite, type WriteFaults } from "../../../../test/support/store-with-faults.ts";

/**
 * The steps of Get Processor Token, in order, each recorded (one attempt write under the lease)
 * before the next starts. The transfer has no write of its own: the transaction record names it,
 * and the attempt takes it with its completion.
 */
export type TransferStep = "funding_source" | "review" | "transaction_record" | "completed";

/**
 * The field that tells each step's write. runTransferSteps records the processor token and the
 * customer in the funding source's write ("funding_source").
 */
const STEP_FIELDS: [string, TransferStep][] = [
  ["fundingSourceUrl", "funding_source"],
  ["reviewId", "review"],
  ["completed", "completed"],
];

/** The step a write records: a write to an attempt under its lease (`leaseId` in the filter) that sets a step's field. */
function stepRecorded(write: StoreWrite): TransferStep | null {
  if (write.collection !== "transfer_attempts" || !("leaseId" in write.filter)) return null;
  const set = write.update.$set ?? {};
  return STEP_FIELDS.find(([field]) => field in set)?.[1] ?? null;
}

/**
 * Payments' store with `onStep` run right after each step of Get Processor Token is recorded,
 * and, for `transaction_record`, right before the `completed` write (the record and its kept
 * notices are done by then): the points a crash between steps can hit. `onStep` throws (a
 * failure the process survives) or never resolves (the process died there).
 */
export function storeWithStepFaults(store: Store, onStep: (step: TransferStep, checkoutId: string) => Promise<void>, more: Pick<WriteFaults, "missed"> = {}): Store {
  const checkoutOf = (write: StoreWrite) => String(write.filter["_id"]);
  return storeWithFaults(store, {
    ...more,
    async before(write) {
      if (stepRecorded(write) === "completed") await onStep("transaction_record", checkoutOf(write));
    },
    async after(write) {
      const step = stepRecorded(write);
      if (step) await onStep(step, checkoutOf(write));
    },
  });
}

/** A renewal of an attempt's lease (its heartbeat's write) that missed: the lease was no longer the writer's. */
export function leaseRenewalMissed(write: StoreWrite, checkoutId: string): boolean {
  const set = write.update.$set ?? {};
  return write.collection === "transfer_attempts" && write.filter["_id"] === checkoutId && "leaseId" in write.filter && Object.keys(set).join() === "leaseUntil";
}
