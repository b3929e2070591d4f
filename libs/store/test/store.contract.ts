import { afterAll, beforeAll, describe } from "vitest";
import type { Collection, Store } from "../src/index.ts";
import { availabilityContract } from "./contract/availability.contract.ts";
import { concurrencyContract } from "./contract/concurrency.contract.ts";
import { findContract } from "./contract/find.contract.ts";
import { findOneAndUpdateContract } from "./contract/find-one-and-update.contract.ts";
import { insertAndIndexContract } from "./contract/insert-and-index.contract.ts";
import type { ContractContext, StoreContractHarness } from "./contract/contract-context.ts";

export type { StoreContractHarness } from "./contract/contract-context.ts";

/**
 * The one behaviour both adapters must share, run by embedded.store.test.ts and
 * mongo.store.test.ts. One store per run; every test works in collections (and sequences)
 * named for it alone, so tests never see each other's documents.
 */
export function runStoreContract(label: string, harness: StoreContractHarness): void {
  describe(label, () => {
    let store: Store | undefined;
    let counter = 0;
    const context: ContractContext = {
      harness,
      store: () => {
        if (!store) throw new Error("store not opened");
        return store;
      },
      fresh: <T extends { _id: string }>(prefix = "c"): Collection<T> => context.store().collection<T>(context.uniqueName(prefix)),
      uniqueName: (prefix) => `${prefix}_${++counter}_${Math.random().toString(36).slice(2, 8)}`,
    };

    beforeAll(async () => {
      store = await harness.open();
    });
    afterAll(async () => {
      await store?.drop();
      await store?.close();
    });

    insertAndIndexContract(context);
    findContract(context);
    findOneAndUpdateContract(context);
    concurrencyContract(context);
    availabilityContract(context);
  });
}
