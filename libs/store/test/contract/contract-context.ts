import type { Collection, Store } from "../../src/index.ts";

/** How an adapter's test file plugs into the contract. */
export interface StoreContractHarness {
  /** Opens the store under test (once per run; the contract drops and closes it after). */
  open(): Promise<Store>;
  /** A store of the same kind whose database cannot be reached. */
  openUnavailable(): Store;
  /**
   * Known gaps of the server behind the store, each with the reason printed when the test
   * that pins the behaviour is skipped. Only for servers we do not control (FerretDB).
   */
  gaps?: {
    /** MongoDB indexes a missing field as null, so two documents without it collide. */
    missingUniqueKeysCollide?: string;
  };
}

export interface ContractContext {
  harness: StoreContractHarness;
  store(): Store;
  /** A collection no other test uses. */
  fresh<T extends { _id: string }>(prefix?: string): Collection<T>;
  /** A name (collection or sequence) no other test uses. */
  uniqueName(prefix: string): string;
}
