import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { TransactionSnapshot } from "./event-snapshots.ts";

/** The transfer failed at the provider: the record is `failed`. Published by payments. */
export const TransactionFailedEvent = defineEvent("transaction.failed", "transaction", TransactionSnapshot);
export type TransactionFailedEvent = z.infer<typeof TransactionFailedEvent>;
