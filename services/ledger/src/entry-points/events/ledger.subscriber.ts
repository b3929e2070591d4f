import type { EventTransport, SubscribeOptions } from "@payrail/messaging";
import { AUDIT_EVENTS, recordAuditEntry } from "../../domain/record-audit-entry.use-case.ts";
import { BOOKS_EVENTS } from "../../domain/books-entry.ts";
import type { PayoutDeps } from "../../domain/ledger.deps.ts";
import { recordEntry } from "../../domain/record-entry.use-case.ts";
import { settlePayout } from "../../domain/settle-payout.use-case.ts";

/**
 * The ledger's event entry point (queue `ledger.events`): payments' and refunds' events that
 * move a merchant's money, payments' word that a payout's transfer is final, and the audit
 * entries every service writes with its changes. Each movement is
 * one row under an id derived from it and each payout settles once, so repeated and replayed
 * events write nothing new; a failure throws, and the transport tries the event again.
 */
export function subscribeLedgerEvents(transport: EventTransport, deps: PayoutDeps, options?: SubscribeOptions): Promise<void> {
  return transport.subscribe(
    "ledger",
    [...BOOKS_EVENTS, "payout_transfer.settled", ...AUDIT_EVENTS],
    async (event) => {
      if (event.type === "payout_transfer.settled") await settlePayout(deps, event.data.object.payout_id, event.data.object);
      else if (isAuditEvent(event)) await recordAuditEntry(deps, event);
      else await recordEntry(deps, event);
    },
    options,
  );
}

function isAuditEvent(event: { type: string }): event is Parameters<typeof recordAuditEntry>[1] {
  return (AUDIT_EVENTS as readonly string[]).includes(event.type);
}
