import { randomUUID } from "node:crypto";
import { reserveRequestsOp } from "@payrail/contracts";
import { describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { anonymous, codeOf, withIdentity } from "./support/identity-harness.ts";

const variants = await infraVariants();
const MINUTE = 60_000;

/** docs/decisions/0049-shared-request-limits.md: the gateways' blocks of a request budget, one conditional write each. */
describe.each(variants)("request budgets over $name", (variant) => {
  const world = withIdentity(variant);
  const reserve = (key: string, count: number, limit = 40, window_start = 120 * MINUTE) =>
    world.client.call(reserveRequestsOp, { key, window_start, window_ms: MINUTE, limit, count }, anonymous);

  describe.skipIf(!!variant.skipReason)("", () => {
    it("grants whole blocks while the window has room, then what is left, then nothing", async () => {
      const key = randomUUID();
      expect(await reserve(key, 15)).toEqual({ granted: 15, reserved: 15 });
      expect(await reserve(key, 15)).toEqual({ granted: 15, reserved: 30 });
      expect(await reserve(key, 15)).toEqual({ granted: 10, reserved: 40 });
      expect(await reserve(key, 15)).toEqual({ granted: 0, reserved: 40 });
      // Another window of the same key starts afresh; so does another key.
      expect(await reserve(key, 15, 40, 121 * MINUTE)).toEqual({ granted: 15, reserved: 15 });
      expect(await reserve(randomUUID(), 50)).toEqual({ granted: 40, reserved: 40 });
    });

    it("never grants more than the limit to reservations that race", async () => {
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 20 }, () => reserve(key, 3)));
      expect(answers.reduce((sum, a) => sum + a.granted, 0)).toBe(40);
      expect(Math.max(...answers.map((a) => a.reserved))).toBe(40);
    });

    it("refuses a reservation of nothing or a window it cannot name", async () => {
      expect(await codeOf(reserve(randomUUID(), 0))).toBe("parameter_invalid");
      expect(await codeOf(world.client.call(reserveRequestsOp, { key: "k", window_start: -1, window_ms: MINUTE, limit: 1, count: 1 }, anonymous))).toBe("parameter_invalid");
    });
  });
});
