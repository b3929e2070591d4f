import { describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../src/index.ts";
import type { ContractContext } from "./contract-context.ts";

/** How fast an unreachable database must be reported (the gateway's 503 depends on it). */
const FAIL_WITHIN_MS = 5_000;

async function failsFast(operation: Promise<unknown>): Promise<void> {
  const started = Date.now();
  await expect(operation).rejects.toBeInstanceOf(StoreUnavailableError);
  expect(Date.now() - started).toBeLessThan(FAIL_WITHIN_MS);
}

export function availabilityContract(ctx: ContractContext): void {
  describe("an unreachable database", () => {
    it("is reported as StoreUnavailableError within 5 s, by ping, reads and writes", async () => {
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
    });

    it("answers ping when it is reachable", async () => {
      await expect(ctx.store().ping()).resolves.toBeUndefined();
    });
  });
}
