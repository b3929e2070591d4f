import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { TransactionSnapshot } from "./event-snapshots.ts";

/**
 * A settled transfer came back (an ACH return after `completed`, docs/api-notes.md, Returns and blocked bank accounts): the record is
 * `returned`, with `failure_code`, `failure_reason` and `returned_at`. Published by payments.
 */
export const TransactionReturnedEvent = defineEvent("transaction.returned", "transaction", TransactionSnapshot);
export type TransactionReturnedEvent = z.infer<typeof TransactionReturnedEvent>;
