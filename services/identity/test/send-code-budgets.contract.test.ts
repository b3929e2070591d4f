import { sendCodeOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import type { Store } from "@payrail/store";
import { SendBudgetRepository } from "../src/data-access/send-budget.repository.ts";
import { sendCodeLimitStats } from "../src/index.ts";
import { anonymous, codeOf, errorOf, freshPhone, startIdentity, type TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const HOUR = 3_600_000;

/** API.md §12: send_code budgets per client address and in total, per hour, shared through the store. */
describe.each(variants)("send_code budgets over $name", (variant) => {
  let client: Transport;
  let clock: TestClock;
  let store: Store;

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, clock, store } = await startIdentity(variant, { sendCodeBudgets: { perAddressPerHour: 3, perHour: 8 } }));
  });
  afterAll(() => variant.cleanup());

  const send = (client_address: string, phone = freshPhone()) => client.call(sendCodeOp, { phone, client_address }, anonymous);
  /** Each test starts in an hour window of its own, so budgets start full. */
  const nextHour = () => clock.advance(HOUR);

  describe.skipIf(!!variant.skipReason)("limits", () => {
    it("refuses a client address's 4th code of the hour with 429 and Retry-After until the hour ends; other addresses go on", async () => {
      nextHour();
      const before = sendCodeLimitStats.snapshot().address;
      for (let i = 0; i < 3; i++) await send("203.0.113.10");
      const refused = await errorOf(send("203.0.113.10"));
      expect(refused.code).toBe("rate_limited");
      const windowEnd = (Math.floor(clock.t / HOUR) + 1) * HOUR;
      expect(refused.retryAfter).toBe(Math.ceil((windowEnd - clock.t) / 1000));
      expect(sendCodeLimitStats.snapshot().address).toBe(before + 1);
      await expect(send("203.0.113.11")).resolves.toEqual({ success: "Verification code sent" });
      // The next hour, the address has its budget back.
      nextHour();
      await expect(send("203.0.113.10")).resolves.toEqual({ success: "Verification code sent" });
    });

    it("counts IPv6 clients by their /64 and IPv4-mapped forms as the IPv4 address", async () => {
      nextHour();
      for (const address of ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:abcd::9"]) await send(address);
      expect(await codeOf(send("2001:db8:5:6::ffff"))).toBe("rate_limited");
      await send("2001:db8:5:7::1");
      for (let i = 0; i < 3; i++) await send("198.51.100.4");
      expect(await codeOf(send("::ffff:198.51.100.4"))).toBe("rate_limited");
    });

    it("refuses everyone once the hour's total is spent", async () => {
      nextHour();
      const before = sendCodeLimitStats.snapshot().total;
      for (let i = 0; i < 8; i++) await send(`192.0.2.${i + 1}`);
      const refused = await errorOf(send("192.0.2.100"));
      expect(refused).toMatchObject({ code: "rate_limited", retryAfter: expect.any(Number) });
      expect(sendCodeLimitStats.snapshot().total).toBe(before + 1);
    });

    it("charges nothing for a send the phone's own rules refuse", async () => {
      nextHour();
      const phone = freshPhone();
      await send("203.0.113.20", phone);
      // The phone's 30-second wait refuses the next two; they cost the address nothing.
      expect(await codeOf(send("203.0.113.20", phone))).toBe("rate_limited");
      expect(await codeOf(send("203.0.113.20", phone))).toBe("rate_limited");
      await send("203.0.113.20");
      await send("203.0.113.20");
      expect(await codeOf(send("203.0.113.20"))).toBe("rate_limited");
    });

    it("lets exactly 3 of 20 racing sends from one address through", async () => {
      nextHour();
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => codeOf(send("203.0.113.30"))));
      expect(outcomes.filter((o) => o === "resolved")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(17);
    });

    it("purges the counters of windows that ended, and only those", async () => {
      nextHour();
      await send("203.0.113.50");
      const budgets = new SendBudgetRepository(store);
      // Every earlier test's window has ended by the end of this one's.
      expect(await budgets.purge(new Date(clock.t).toISOString(), 1_000)).toBeGreaterThan(0);
      expect(await budgets.purge(new Date(clock.t).toISOString(), 1_000)).toBe(0);
      // The current window's counter is kept: its one send still fills a budget of one.
      await expect(budgets.take("ip4:203.0.113.50", new Date(Math.floor(clock.t / HOUR) * HOUR).toISOString(), 1, new Date(clock.t + HOUR).toISOString())).resolves.toBe(false);
    });

    it("limits only the total when the caller names no address", async () => {
      nextHour();
      for (let i = 0; i < 8; i++) await client.call(sendCodeOp, { phone: freshPhone() }, anonymous);
      expect(await codeOf(client.call(sendCodeOp, { phone: freshPhone() }, anonymous))).toBe("rate_limited");
    });
  });
});
