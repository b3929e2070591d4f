import { sendCodeOp, verifyCodeOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import type { Store } from "@payrail/store";
import { SendBudgetRepository } from "../src/data-access/send-budget.repository.ts";
import { sendCodeLimitStats } from "../src/index.ts";
import { anonymous, codeOf, errorOf, freshPhone, lastCode, startIdentity, type TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SLOT = 5 * MINUTE;

let counter = 0;
/** Fresh possible numbers of four calling codes in turn (+1, +44, +49, +33), or of the one asked for. */
function phoneOf(code: "1" | "44" | "49" | "33" = (["1", "44", "49", "33"] as const)[counter % 4]!): string {
  const n = String(++counter % 10_000).padStart(4, "0");
  if (code === "1") return freshPhone();
  if (code === "44") return `+447700900${n.slice(1)}`;
  if (code === "49") return `+4915123${n}00`;
  return `+3361234${n}`;
}

/** docs/decisions/0003-send-code-budgets.md: send_code budgets per sliding hour, shared through the store. */
describe.each(variants)("send_code budgets over $name", (variant) => {
  let client: Transport;
  let clock: TestClock;
  let store: Store;

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, clock, store } = await startIdentity(variant, { sendCodeBudgets: { perAddressPerHour: 3, perCountryPerHour: 6, perHour: 8 } }));
  });
  afterAll(() => variant.cleanup());

  const send = (client_address: string, phone = phoneOf()) => client.call(sendCodeOp, { phone, client_address }, anonymous);
  /** Each test starts when every earlier send has left the window (an hour after its 5-minute slot), so budgets start full. */
  const freshWindow = () => clock.advance(HOUR + SLOT);
  /** Its last code, exchanged for an auth token. */
  const verify = async (phone: string) => (await client.call(verifyCodeOp, { phone, verification_code: await lastCode(client, phone) }, anonymous)).data.auth_token;
  /** A phone that verified from this address, 30 seconds ago (clear of its resend wait). */
  async function returningPhone(address: string): Promise<string> {
    const phone = freshPhone();
    await send(address, phone);
    await verify(phone);
    clock.advance(30_000);
    return phone;
  }
  /** When the sends made now stop counting. */
  const slotEnd = () => Math.floor(clock.t / SLOT) * SLOT + SLOT + HOUR;

  describe.skipIf(!!variant.skipReason)("limits", () => {
    it("refuses a client address's 4th code of the hour with 429 and Retry-After until its sends leave the window; other addresses go on", async () => {
      freshWindow();
      const before = sendCodeLimitStats.snapshot().address;
      for (let i = 0; i < 3; i++) await send("203.0.113.10");
      const refused = await errorOf(send("203.0.113.10"));
      expect(refused.code).toBe("rate_limited");
      expect(refused.retryAfter).toBe(Math.ceil((slotEnd() - clock.t) / 1000));
      expect(sendCodeLimitStats.snapshot().address).toBe(before + 1);
      await expect(send("203.0.113.11")).resolves.toEqual({ success: "Verification code sent" });
      // Once the three have left the window, the address has its budget back.
      clock.advance(refused.retryAfter! * 1000);
      await expect(send("203.0.113.10")).resolves.toEqual({ success: "Verification code sent" });
    });

    it("does not give a client twice its budget across an hour's edge", async () => {
      freshWindow();
      // A minute before a UTC hour ends, the whole budget; two minutes later, still nothing.
      clock.advance((Math.floor(clock.t / HOUR) + 2) * HOUR - MINUTE - clock.t);
      for (let i = 0; i < 3; i++) await send("203.0.113.12");
      clock.advance(2 * MINUTE);
      const refused = await errorOf(send("203.0.113.12"));
      expect(refused).toMatchObject({ code: "rate_limited", retryAfter: 59 * 60 });
      // Not a moment before the three are an hour old (and their slot has passed).
      clock.advance(refused.retryAfter! * 1000 - 1_000);
      expect(await codeOf(send("203.0.113.12"))).toBe("rate_limited");
      clock.advance(1_000);
      await expect(send("203.0.113.12")).resolves.toEqual({ success: "Verification code sent" });
    });

    it("counts IPv6 clients by their /64 and IPv4-mapped forms as the IPv4 address", async () => {
      freshWindow();
      for (const address of ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:abcd::9"]) await send(address);
      expect(await codeOf(send("2001:db8:5:6::ffff"))).toBe("rate_limited");
      await send("2001:db8:5:7::1");
      for (let i = 0; i < 3; i++) await send("198.51.100.4");
      expect(await codeOf(send("::ffff:198.51.100.4"))).toBe("rate_limited");
    });

    it("refuses every new number once the hour's total is spent", async () => {
      freshWindow();
      const before = sendCodeLimitStats.snapshot().total;
      for (let i = 0; i < 8; i++) await send(`192.0.2.${i + 1}`);
      const refused = await errorOf(send("192.0.2.100"));
      expect(refused).toMatchObject({ code: "rate_limited", retryAfter: expect.any(Number) });
      expect(sendCodeLimitStats.snapshot().total).toBe(before + 1);
    });

    it("lets a returning phone sign in after 12 addresses spent the total on new numbers", async () => {
      freshWindow();
      const returning = await returningPhone("198.51.100.50");
      const flood = [];
      for (let i = 0; i < 12; i++) flood.push(await codeOf(send(`192.0.2.${i + 120}`)));
      expect(flood).toEqual([...Array(7).fill("resolved"), ...Array(5).fill("rate_limited")]);
      expect(await codeOf(send("198.51.100.51"))).toBe("rate_limited");
      // The phone that verified before is outside the total: its code comes, and it signs in.
      await expect(send("198.51.100.51", returning)).resolves.toEqual({ success: "Verification code sent" });
      expect(await verify(returning)).toEqual(expect.any(String));
    });

    it("holds a returning phone to its address's budget", async () => {
      freshWindow();
      const returning = await returningPhone("198.51.100.60");
      for (let i = 0; i < 2; i++) await send("198.51.100.60");
      expect(await codeOf(send("198.51.100.60", returning))).toBe("rate_limited");
    });

    it("keeps one calling code's flood from stopping the others", async () => {
      freshWindow();
      const before = sendCodeLimitStats.snapshot().country;
      const flood = [];
      for (let i = 0; i < 12; i++) flood.push(await codeOf(send(`192.0.2.${i + 140}`, phoneOf("44"))));
      expect(flood).toEqual([...Array(6).fill("resolved"), ...Array(6).fill("rate_limited")]);
      expect(sendCodeLimitStats.snapshot().country).toBe(before + 6);
      await expect(send("192.0.2.160", phoneOf("1"))).resolves.toEqual({ success: "Verification code sent" });
      await expect(send("192.0.2.161", phoneOf("49"))).resolves.toEqual({ success: "Verification code sent" });
    });

    it("charges nothing for a send the phone's own rules refuse", async () => {
      freshWindow();
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
      freshWindow();
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => codeOf(send("203.0.113.30"))));
      expect(outcomes.filter((o) => o === "resolved")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(17);
    });

    it("purges the counters of slots that left the window, and only those", async () => {
      freshWindow();
      await send("203.0.113.50");
      const budgets = new SendBudgetRepository(store);
      // Every earlier test's slots have left the window by the start of this one.
      expect(await budgets.purge(new Date(clock.t).toISOString(), 1_000)).toBeGreaterThan(0);
      expect(await budgets.purge(new Date(clock.t).toISOString(), 1_000)).toBe(0);
      // The current slot's counter is kept: its one send still fills a budget of one.
      const slot = new Date(Math.floor(clock.t / SLOT) * SLOT).toISOString();
      await expect(budgets.take("ip4:203.0.113.50", slot, 1, new Date(slotEnd()).toISOString())).resolves.toBe(false);
    });

    it("limits only the new numbers' budgets when the caller names no address", async () => {
      freshWindow();
      for (let i = 0; i < 8; i++) await client.call(sendCodeOp, { phone: phoneOf() }, anonymous);
      expect(await codeOf(client.call(sendCodeOp, { phone: phoneOf() }, anonymous))).toBe("rate_limited");
    });
  });
});
