/**
 * What fraud screening costs a first charge, measured on the store a full-flow row left behind.
 *
 * Screening has no switch, and gets none for a bench: a way to run a live payments service
 * without it would be a way to send unscreened debits. So instead of a flow row without it, the
 * bench replays, once the server has stopped, the screening of each debit the row made, on the
 * same store with that debit's own facts: what the transfer's review gate reads before it sends
 * a first debit (the review by its id, the payment method, then screenDebit's index counts and
 * the merchant's amount sums) and the rules evaluated on them. Its CPU per debit, against the
 * row's server CPU per flow, is screening's share of a first charge. It runs in the bench's own
 * process (no RPC, no HTTP), which is how the review gate calls it: inside payments, on its store.
 */
import { loadConfig, silentLogger } from "@payrail/runtime";
import { createStore } from "@payrail/store";
import { AmountStatsRepository } from "../../services/payments/src/data-access/amount-stats.repository.ts";
import { PaymentMethodRepository } from "../../services/payments/src/data-access/payment-method.repository.ts";
import { ReviewRepository } from "../../services/payments/src/data-access/review.repository.ts";
import { TransactionRepository } from "../../services/payments/src/data-access/transaction.repository.ts";
import { TransferAttemptRepository } from "../../services/payments/src/data-access/transfer-attempt.repository.ts";
import { reviewIdFor, screenAttempt } from "../../services/payments/src/domain/fraud/open-review.ts";
import type { ScreeningDeps } from "../../services/payments/src/domain/fraud/screen-debit.ts";
import type { TransferAttemptRecord } from "../../services/payments/src/domain/transfers/transfer-attempt.entity.ts";

export interface ScreeningCost {
  /** Debits screened (the first charges the flow row made). */
  debits: number;
  /** CPU of this process per screening, ms (the second of two passes: the first warms the JIT and the page cache). */
  cpuMsPerDebit: number;
  /** Debits of which a rule fired (they would have been held). */
  flagged: number;
}

/** Replays the screening of `checkoutIds`' first charges on the store of `storeEnv` (no server may hold it). */
export async function screeningCost(storeEnv: Record<string, string>, checkoutIds: readonly string[]): Promise<ScreeningCost> {
  const config = loadConfig({ ...storeEnv, SERVICES: "all" });
  const logger = silentLogger();
  // As the servers under test run it (NODE_ENV=production): the index check warns, it does not enforce.
  const store = await createStore({ mongodbUrl: config.MONGODB_URL, dbName: config.MONGODB_DB, dataDir: config.DATA_DIR, logger, indexCheck: "warn" });
  try {
    const attempts = new TransferAttemptRepository(store);
    const paymentMethods = new PaymentMethodRepository(store);
    const reviews = new ReviewRepository(store);
    const deps: ScreeningDeps = {
      transactions: new TransactionRepository(store),
      paymentMethods,
      amountStats: new AmountStatsRepository(store),
      fraud: config,
      now: () => new Date(),
    };
    const debits = (await Promise.all(checkoutIds.map((id) => attempts.find(id)))).filter((a): a is TransferAttemptRecord => a !== null);
    // The review gate's reads and rules, one debit after another (the flow's debits run 10 at a time; the CPU is the same).
    const screenAll = async () => {
      let flagged = 0;
      for (const a of debits) {
        if (await reviews.find(reviewIdFor(a.transactionUuid))) continue;
        const { hits } = await screenAttempt(deps, a);
        if (hits.length > 0) flagged++;
      }
      return flagged;
    };
    await screenAll();
    const before = process.cpuUsage();
    const flagged = await screenAll();
    const used = process.cpuUsage(before);
    const cpuMs = (used.user + used.system) / 1000;
    return { debits: debits.length, cpuMsPerDebit: debits.length > 0 ? cpuMs / debits.length : NaN, flagged };
  } finally {
    await store.close();
  }
}
