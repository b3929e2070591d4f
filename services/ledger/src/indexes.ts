import { OUTBOX_INDEX, type Store } from "@payrail/store";
import { AuditLogRepository } from "./data-access/audit-log.repository.ts";
import { BalanceTransactionRepository } from "./data-access/balance-transaction.repository.ts";
import { PAYOUTS_COLLECTION, PayoutRepository } from "./data-access/payout.repository.ts";

/**
 * Every index the ledger service queries by, created if missing: by `start` before it consumes (so no
 * request meets a missing index), and by `payrail indexes` (the Helm chart's pre-upgrade Job) before
 * a rollout, so a new index over a large collection is built there, not in a starting pod.
 */
export async function createIndexes(store: Store): Promise<void> {
  await new BalanceTransactionRepository(store).ensureIndexes();
  await new PayoutRepository(store).ensureIndexes();
  await new AuditLogRepository(store).ensureIndexes();
  await store.collection(PAYOUTS_COLLECTION).createIndex(OUTBOX_INDEX);
}
