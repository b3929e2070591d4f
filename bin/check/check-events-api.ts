import type { CheckContext, Divergence } from "./divergence.ts";
import { everyDocument } from "./divergence.ts";

/** The events API keeps 30 days; a day less leaves room for the retention sweep. */
const KEPT_MS = 29 * 86_400_000;

type EventDoc = { _id: string; type: string; createdAt: string; body: string };
type Transaction = { _id: string; transaction_status: string; created_at: string; updated_at: string };
type Refund = { _id: string; status: string; updatedAt: string };

/** The event the record's current status was announced with. */
const TRANSACTION_EVENT: Record<string, string> = {
  pending: "transaction.created",
  completed: "transaction.completed",
  failed: "transaction.failed",
  cancelled: "transaction.failed",
  returned: "transaction.returned",
};
const REFUND_EVENT: Record<string, string> = {
  pending: "refund.requested",
  approved: "refund.approved",
  rejected: "refund.rejected",
  processing: "refund.processing",
  completed: "refund.completed",
  failed: "refund.failed",
};

/**
 * Every change merchants are told of reached the events API: each transaction record's
 * creation and current status, and each refund's current status, within the API's retention.
 */
export async function checkEventsApi(ctx: CheckContext, report: (d: Divergence) => void): Promise<void> {
  const since = new Date(ctx.now.getTime() - KEPT_MS).toISOString();
  const seen = new Set<string>();
  for await (const e of everyDocument(ctx.store.collection<EventDoc>("webhook_events"))) {
    const object = (JSON.parse(e.body) as { data?: { object?: Record<string, unknown> } }).data?.object ?? {};
    const id = e.type.startsWith("transaction.") ? object["transaction_uuid"] : object["id"];
    if (typeof id === "string") seen.add(`${e.type} ${id}`);
  }
  const expect = (type: string | undefined, id: string) => {
    if (type && !seen.has(`${type} ${id}`)) report({ kind: "event_missing", id, detail: `no ${type} event for ${id} in the events API` });
  };
  for await (const t of everyDocument(ctx.store.collection<Transaction>("transactions"))) {
    if (t.created_at >= since && t.created_at < ctx.settledBefore) expect("transaction.created", t._id);
    if (t.transaction_status !== "pending" && t.updated_at >= since && t.updated_at < ctx.settledBefore) expect(TRANSACTION_EVENT[t.transaction_status], t._id);
  }
  for await (const r of everyDocument(ctx.store.collection<Refund>("refunds"))) {
    if (r.updatedAt >= since && r.updatedAt < ctx.settledBefore) expect(REFUND_EVENT[r.status], r._id);
  }
}
