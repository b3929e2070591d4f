import { describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../src/index.ts";
import type { ContractContext } from "./contract-context.ts";

/**
 * The test's own limit for an unreachable database to be reported (the gateway's 503 depends on
 * it): below the MongoDB driver's default 30 s server selection, so a store that lost its shorter
 * setting hangs past it and fails the test.
 */
const FAIL_WITHIN_MS = 10_000;

async function failsFast(operation: Promise<unknown>): Promise<void> {
  await expect(operation).rejects.toBeInstanceOf(StoreUnavailableError);
}

export function availabilityContract(ctx: ContractContext): void {
  describe("an unreachable database", () => {
    it("is reported as StoreUnavailableError, not after the driver's 30 s, by ping, reads and writes", async () => {
      const store = ctx.harness.openUnavailable();
      try {
        const col = store.collection<{ _id: string; status: string }>("anything");
        await Promise.all([
          failsFast(store.ping()),
          failsFast(col.find({ status: "open" })),
          failsFast(col.insertOne({ _id: "1", status: "open" })),
          failsFast(col.findOneAndUpdate({ _id: "1" }, { $set: { status: "x" } })),
          failsFast(store.nextSequence("anything")),
        ]);
      } finally {
        await store.close();
      }
    }, FAIL_WITHIN_MS);

    it("answers ping when it is reachable", async () => {
      await expect(ctx.store().ping()).resolves.toBeUndefined();
    });
  });
}
