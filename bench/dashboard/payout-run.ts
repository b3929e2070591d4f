/**
 * The scheduled payout pass over many merchants (docs/decisions/0050-payouts.md), in this
 * process on the embedded store: `merchants` merchants, each with a few available balance rows
 * (two debits and a refund, counted in its total), seeded straight into the store; then one
 * `payoutPass` over all of them, timed, with the ledger's store round trips counted by a counting
 * store wrapper. Payments is a fake that answers every payout `pending` at once and counts the
 * calls: its own writes and the provider's call (decisions/0050, Consequences) are not in the
 * ledger's count. Every merchant must end with one payout of its rows' sum, or the row throws.
 */
import { performance } from "node:perf_hooks";
import { silentLogger } from "@payrail/runtime";
import { createStore, JobLeases } from "@payrail/store";
import { AuditLogRepository } from "../../services/ledger/src/data-access/audit-log.repository.ts";
import { BalanceTransactionRepository } from "../../services/ledger/src/data-access/balance-transaction.repository.ts";
import { BalanceRepository } from "../../services/ledger/src/data-access/balance.repository.ts";
import { PayoutRepository } from "../../services/ledger/src/data-access/payout.repository.ts";
import { balanceTransactionId, type BalanceTransactionDoc } from "../../services/ledger/src/domain/balance-transaction.entity.ts";
import type { BalanceDoc } from "../../services/ledger/src/domain/balance.entity.ts";
import type { PayoutDeps } from "../../services/ledger/src/domain/ledger.deps.ts";
import type { PayoutDoc } from "../../services/ledger/src/domain/payout.entity.ts";
import { payoutPass } from "../../services/ledger/src/domain/run-payouts.use-case.ts";
import { createIndexes } from "../../services/ledger/src/indexes.ts";
import { countingStore } from "../counting-store.ts";

export interface PayoutRunRow {
  merchants: number;
  rowsPerMerchant: number;
  payouts: number;
  seedSeconds: number;
  seconds: number;
  /** The ledger's store round trips over the whole pass (leases, reads, writes). */
  storeCalls: number;
  /** Calls to payments (`payments.createPayout`). */
  rpcCalls: number;
}

/** Each merchant's rows: cents, type. Their sum is its payout. */
const ROWS: readonly [number, "debit" | "refund"][] = [
  [10_750, "debit"],
  [2_500, "debit"],
  [-1_025, "refund"],
];
const PAYOUT_CENTS = ROWS.reduce((sum, [cents]) => sum + cents, 0);
/** Seed writes in flight at once. */
const SEED_BATCH = 200;

export async function measurePayoutRun(merchants: number, dataDir: string, log: (message: string) => void): Promise<PayoutRunRow> {
  const raw = await createStore({ dataDir, logger: silentLogger() });
  try {
    await createIndexes(raw);
    const seedStarted = performance.now();
    await seed(raw, merchants);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`  payout run: ${merchants} merchants seeded in ${seedSeconds.toFixed(1)} s`);
    const store = countingStore(raw);
    let rpcCalls = 0;
    const deps: PayoutDeps = {
      rows: new BalanceTransactionRepository(store),
      balances: new BalanceRepository(store),
      auditLog: new AuditLogRepository(store),
      payouts: new PayoutRepository(store),
      jobs: new JobLeases(store, "ledger_job_leases"),
      transfers: {
        async createPayout(_requestId, input) {
          rpcCalls++;
          return { status: "pending", transfer_id: `tr_${input.payout_id}` };
        },
      },
      leaseMs: 5 * 60_000,
      livemode: false,
      events: { written: () => undefined },
      availableDays: 0,
      logger: silentLogger(),
      now: () => new Date(),
    };
    const started = performance.now();
    const report = await payoutPass(deps);
    const seconds = (performance.now() - started) / 1000;
    const storeCalls = store.calls;
    if (report.errors > 0 || report.payouts !== merchants) throw new Error(`payout pass: ${JSON.stringify(report)}, expected ${merchants} payouts`);
    const wrong = (await raw.collection<PayoutDoc>("payouts").find({ merchantId: "mer_000000", stage: "created" })).filter((p) => p.amountCents !== PAYOUT_CENTS);
    if (wrong.length > 0) throw new Error(`payout of mer_000000: ${wrong[0]!.amountCents} cents, expected ${PAYOUT_CENTS}`);
    return { merchants, rowsPerMerchant: ROWS.length, payouts: report.payouts, seedSeconds, seconds, storeCalls, rpcCalls };
  } finally {
    await raw.close();
  }
}

/** The merchants' rows, available an hour ago and counted, and each merchant's total of them. */
async function seed(store: Awaited<ReturnType<typeof createStore>>, merchants: number): Promise<void> {
  const rows = store.collection<BalanceTransactionDoc>("balance_transactions");
  const balances = store.collection<BalanceDoc>("balances");
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const one = async (i: number) => {
    const merchantId = `mer_${String(i).padStart(6, "0")}`;
    let last = "";
    for (const [k, [cents, type]] of ROWS.entries()) {
      const source = `sc-${merchantId}-${k}`;
      last = balanceTransactionId(type, source);
      await rows.insertOne({ _id: last, merchantId, type, amountCents: cents, currency: "usd", source, eventId: `evt_${merchantId}_${k}`, createdAt: at, availableAt: at, payoutId: null, counted: true });
    }
    await balances.insertOne({ _id: merchantId, totalCents: PAYOUT_CENTS, seq: ROWS.length, lastBtx: last, currency: "usd" });
  };
  for (let i = 0; i < merchants; i += SEED_BATCH) {
    await Promise.all(Array.from({ length: Math.min(SEED_BATCH, merchants - i) }, (_, k) => one(i + k)));
  }
}
