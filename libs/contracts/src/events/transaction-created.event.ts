import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { TransactionSnapshot } from "./event-snapshots.ts";

/** A transfer started: its transaction record was written `pending` (a first charge or a renewal). Published by payments. */
export const TransactionCreatedEvent = defineEvent("transaction.created", "transaction", TransactionSnapshot);
export type TransactionCreatedEvent = z.infer<typeof TransactionCreatedEvent>;
