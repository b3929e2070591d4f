import type { RefundPayoutSnapshot } from "@payrail/contracts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import { refreshTransfer } from "./refresh-transfer.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";
import type { StatusDeps } from "./transfer.deps.ts";

/**
 * A notice that transfer X changed (a provider webhook or a sandbox simulation): the notice
 * only says "look at X" (refreshTransfer reads the provider). Its id is remembered once its
 * outcome was applied, so a replay is acknowledged and ignored, and a failure on the way makes
 * the provider deliver it again. A notice for a transfer payments has no record of yet (the
 * record is written just after the provider answered, and a crash can fall in between) is
 * kept, and applied when the record appears (applyKeptNotices) or by the reconciler.
 */
export async function applyTransferStatus(
  deps: StatusDeps,
  meta: RequestMeta,
  event: { eventId: string; transferId: string },
): Promise<{ duplicate: boolean; transaction: TransactionDoc | null; payout?: RefundPayoutSnapshot }> {
  if (await deps.webhookEvents.seen(event.eventId)) return { duplicate: true, transaction: null };
  const refreshed = await refreshTransfer(deps, meta, event.transferId);
  const now = deps.now().toISOString();
  switch (refreshed.kind) {
    case "unknown":
      await deps.notices.keep({ eventId: event.eventId, transferId: event.transferId, receivedAt: now });
      deps.logger.info({ requestId: meta.requestId, eventId: event.eventId, transferId: event.transferId }, "status notice for a transfer with no record yet kept");
      return { duplicate: false, transaction: null };
    case "merchant_payout":
    case "payout":
      if (refreshed.payout) await deps.webhookEvents.remember(event.eventId, now);
      if (refreshed.kind === "merchant_payout") return { duplicate: false, transaction: null };
      return { duplicate: false, transaction: null, ...(refreshed.payout ? { payout: refreshed.payout } : {}) };
    case "transaction":
      if (refreshed.final) await deps.webhookEvents.remember(event.eventId, now);
      return { duplicate: false, transaction: refreshed.transaction };
  }
}
