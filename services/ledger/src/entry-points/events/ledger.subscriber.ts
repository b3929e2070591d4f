import type { EventTransport, SubscribeOptions } from "@payrail/messaging";
import { BOOKS_EVENTS } from "../../domain/books-entry.ts";
import type { LedgerDeps } from "../../domain/ledger.deps.ts";
import { recordEntry } from "../../domain/record-entry.use-case.ts";

/**
 * The ledger's event entry point (queue `ledger.events`): payments' and refunds' events that
 * move a merchant's money. Each movement is one row under an id derived from it, so repeated
 * and replayed events write nothing new; a failure throws, and the transport tries the event again.
 */
export function subscribeLedgerEvents(transport: EventTransport, deps: LedgerDeps, options?: SubscribeOptions): Promise<void> {
  return transport.subscribe("ledger", BOOKS_EVENTS, (event) => recordEntry(deps, event), options);
}
