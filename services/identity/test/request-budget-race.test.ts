import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { storeWithFaults } from "../../../test/support/store-with-faults.ts";
import { RequestBudgetRepository } from "../src/data-access/request-budget.repository.ts";

/*
 * docs/decisions/0049-shared-request-limits.md: two gateways open a window at once. The first
 * one's block write finds no counter, and before it reads the counter the other gateway creates
 * it. Made deterministic here: the store fake runs the other gateway's reservation in between.
 */
describe("a window's first reservations, interleaved", () => {
  const variant = embeddedVariant();
  afterAll(() => variant.cleanup());

  it("grants the gateway that found no counter its block, not the rest of the budget", async () => {
    const store = await variant.store();
    const other = new RequestBudgetRepository(store);
    const id = `${randomUUID()}@0`;
    let interleaved = false;
    const first = new RequestBudgetRepository(
      storeWithFaults(store, {
        async missed(write) {
          if (interleaved || write.collection !== "request_budgets") return;
          interleaved = true;
          // The other gateway opens the window between this one's missed write and its read.
          expect(await other.reserve(id, 1_000, 100, "2100-01-01T00:00:00.000Z")).toEqual({ granted: 100, reserved: 100 });
        },
      }),
    );

    expect(await first.reserve(id, 1_000, 100, "2100-01-01T00:00:00.000Z")).toEqual({ granted: 100, reserved: 200 });
    expect(interleaved).toBe(true);
    // Both gateways go on drawing blocks: the budget was not handed out whole.
    expect(await other.reserve(id, 1_000, 100, "2100-01-01T00:00:00.000Z")).toEqual({ granted: 100, reserved: 300 });
  });
});
