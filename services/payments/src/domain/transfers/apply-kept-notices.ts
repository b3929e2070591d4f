import { refreshTransfer } from "./refresh-transfer.ts";
import type { StatusDeps } from "./transfer.deps.ts";

/**
 * A transfer's record was just written: the provider notices that arrived before it (kept by
 * applyTransferStatus) are applied now, and remembered as applied once the outcome is final.
 * Costs one indexed read when there are none, which is almost always. A failure is logged and
 * left to the reconciler (the record is pending, so it is looked at again): the caller's own
 * work is done and must not be reported failed for it.
 */
export async function applyKeptNotices(deps: StatusDeps, requestId: string, transferId: string): Promise<void> {
  const meta = { requestId, principal: { kind: "service" as const, service: "payments" } };
  try {
    const kept = await deps.notices.forTransfer(transferId);
    if (kept.length === 0) return;
    const refreshed = await refreshTransfer(deps, meta, transferId);
    const final = (refreshed.kind === "transaction" && refreshed.final) || (refreshed.kind === "payout" && refreshed.payout !== null);
    if (!final) return;
    const now = deps.now().toISOString();
    for (const notice of kept) {
      await deps.webhookEvents.remember(notice.eventId, now);
      await deps.notices.applied(notice.eventId);
    }
    deps.logger.info({ requestId: meta.requestId, transferId, notices: kept.length }, "kept status notices applied");
  } catch (err) {
    deps.logger.warn({ err, requestId: meta.requestId, transferId }, "kept status notices not applied yet; the reconciler will");
  }
}
