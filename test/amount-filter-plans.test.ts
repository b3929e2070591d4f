import { describe, expect, it } from "vitest";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, withIndexCheck, type Filter, type FindOptions, type Store } from "@payrail/store";
import { CheckoutRepository } from "../services/checkout/src/data-access/checkout.repository.ts";
import { RefundRepository } from "../services/refunds/src/data-access/refund.repository.ts";
import { BalanceTransactionRepository } from "../services/ledger/src/data-access/balance-transaction.repository.ts";

interface Planned {
  collection: string;
  filter: Filter;
  options: FindOptions | undefined;
}

/** The store, with every find its collections are asked for written down (the repositories' real queries). */
function recording(store: Store, seen: Planned[]): Store {
  return {
    ...store,
    collection: <T extends { _id: string }>(name: string) => {
      const inner = store.collection<T>(name);
      return {
        ...inner,
        name: inner.name,
        find: (filter: Filter, options?: FindOptions) => {
          seen.push({ collection: name, filter, options });
          return inner.find(filter, options);
        },
      };
    },
  };
}

/**
 * The amount filters' queries as the repositories build them (docs/decisions/0055-amount-filters.md),
 * planned by SQLite on the embedded store with exactly the indexes the services declare: each is
 * a SEARCH through a list index ending in the amount (so the range is tested on index keys), in
 * the list's order (no sort step), never a scan. They also pass the index check, which is on.
 */
describe("amount filters' query plans (embedded store)", () => {
  it("serves every filtered list through an index that ends in its amount, in the list's order", async () => {
    const embedded = createEmbeddedStore({ logger: silentLogger() });
    const seen: Planned[] = [];
    const store = recording(withIndexCheck(embedded, { mode: "enforce" }), seen);
    const checkouts = new CheckoutRepository(store);
    const refunds = new RefundRepository(store);
    const rows = new BalanceTransactionRepository(store);
    await checkouts.ensureIndexes();
    await refunds.ensureIndexes();
    await rows.ensureIndexes();

    const range = { minCents: 1000, maxCents: 10000 };
    const window = { from: "2026-10-01T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" };
    const checkoutAfter = { number: 42, createdAt: "2026-10-15T00:00:00.000Z" };
    const after = { _id: "x", createdAt: "2026-10-15T00:00:00.000Z" };
    await checkouts.listForMerchant("m", 21, undefined, range);
    await checkouts.listForMerchant("m", 21, checkoutAfter, { maxCents: 500 });
    await checkouts.listForMerchant("m", 21, checkoutAfter, { ...range, ...window });
    await checkouts.listForMerchant("m", 21, checkoutAfter, { ...range, status: "paid" });
    await checkouts.listForMerchant("m", 21, checkoutAfter, { ...range, isSubscription: true });
    await refunds.listForMerchant("m", { ...range }, 21);
    await refunds.listForMerchant("m", { ...range, ...window, after, status: "pending" }, 21);
    await rows.list({ merchantId: "m", minCents: -10000, maxCents: -1000 }, 21, after);
    await rows.list({ merchantId: "m", ...range, ...window }, 21);
    await rows.list({ merchantId: "m", ...range, type: "refund" }, 21, after);
    await rows.list({ merchantId: "m", ...range, payoutId: "po_1" }, 21, after);
    expect(seen).toHaveLength(11);

    for (const { collection, filter, options } of seen) {
      const plan = (embedded.collection(collection) as unknown as { queryPlan(f: Filter, o?: FindOptions): string }).queryPlan(filter, options);
      const what = `${collection} ${JSON.stringify(filter)}: ${plan}`;
      expect(plan, what).toMatch(/SEARCH .* USING INDEX \S+_amount \(/);
      expect(plan, what).not.toMatch(/SCAN|TEMP B-TREE/);
    }
    await embedded.close();
  });
});
