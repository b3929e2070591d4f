import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { SESSION_COOKIE } from "../../../apps/dashboard/src/dashboard-session.ts";
import { DASHBOARD_PASSWORD, DashboardClient, dashboardUser } from "./support/dashboard-session.ts";

const variants = await infraVariants();
const PROXY = "10.3.0.1";

/** The error line of a sign-in page (the CSRF token and the email differ between pages). */
const errorLine = (body: string) => /<p class="error" role="alert">([^<]*)</.exec(body)?.[1];

/**
 * Dashboard sign-in guessed through a trusted proxy (docs/decisions/0004-sign-in-limits.md):
 * per account whatever the forwarded address, per address across emails, counted by identity in
 * the store so that every gateway and identity instance shares the count.
 */
describe.each(variants)("dashboard sign-in limits through a proxy over $name", (variant) => {
  let stack: Stack;
  let merchantId: string;

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, { gateway: { trustProxy: PROXY } });
    merchantId = (await stack.merchant("Acme")).id;
  });
  afterAll(async () => {
    await stack?.close();
    await variant.cleanup();
  });

  /** A browser behind the proxy, its sign-in page open. */
  async function browserAt(address: string): Promise<DashboardClient> {
    const browser = new DashboardClient(stack.app, PROXY, { "x-forwarded-for": address });
    await browser.get("/dashboard/sign-in");
    return browser;
  }

  describe.skipIf(!!variant.skipReason)("guessing", () => {
    it("slows 30 guesses at one email from 30 forwarded addresses after the 5th: 429 with Retry-After, the right password too", async () => {
      const { email } = await dashboardUser(stack.app, merchantId, "viewer");
      const statuses: number[] = [];
      let last = "";
      for (let i = 0; i < 30; i++) {
        const reply = await (await browserAt(`198.51.100.${i + 1}`)).post("/dashboard/sign-in", { email, password: `guess ${i}` });
        statuses.push(reply.statusCode);
        if (reply.statusCode === 429) {
          expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0);
          last = reply.body;
        }
      }
      expect(statuses).toEqual([...Array(4).fill(401), ...Array(26).fill(429)]);
      const right = await (await browserAt("192.0.2.77")).post("/dashboard/sign-in", { email, password: DASHBOARD_PASSWORD });
      expect(right.statusCode).toBe(429);
      // What is left of the minute's delay the 5th failure started: 60 s at most, less as the clock runs.
      const wait = Number(right.headers["retry-after"]);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(String(right.headers["set-cookie"] ?? "")).not.toContain(`${SESSION_COOKIE}=`);
      // The right password's page says what a wrong one's does: the same words, the wait aside.
      const words = /^Too many sign-in attempts\. Try again in (1 minute|\d+ seconds?)\.$/;
      expect(errorLine(right.body)).toMatch(words);
      expect(errorLine(last)).toMatch(words);
      expect(errorLine(right.body)).toBe(`Too many sign-in attempts. Try again in ${wait === 60 ? "1 minute" : `${wait} second${wait === 1 ? "" : "s"}`}.`);
    });

    it("answers 429 to one forwarded address trying 12 emails twice each, and not to another", async () => {
      const users = [];
      for (let i = 0; i < 12; i++) users.push(await dashboardUser(stack.app, merchantId, "viewer"));
      const guesser = await browserAt("203.0.113.99");
      const statuses: number[] = [];
      for (const { email } of users) for (let i = 0; i < 2; i++) statuses.push((await guesser.post("/dashboard/sign-in", { email, password: `guess ${i}` })).statusCode);
      expect(statuses).toEqual([...Array(19).fill(401), ...Array(5).fill(429)]);
      const neighbour = await browserAt("203.0.113.100");
      expect((await neighbour.post("/dashboard/sign-in", { email: users[0]!.email, password: DASHBOARD_PASSWORD })).statusCode).toBe(303);
    });
  });
});
