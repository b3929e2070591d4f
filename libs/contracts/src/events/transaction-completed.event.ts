import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { TransactionSnapshot } from "./event-snapshots.ts";

/** The provider settled the transfer: the record is `completed`. Published by payments. */
export const TransactionCompletedEvent = defineEvent("transaction.completed", "transaction", TransactionSnapshot);
export type TransactionCompletedEvent = z.infer<typeof TransactionCompletedEvent>;
