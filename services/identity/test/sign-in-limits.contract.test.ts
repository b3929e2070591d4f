import { acceptInvitationOp, createMerchantOp, inviteMerchantUserOp, signInOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { SignInFailureRepository } from "../src/data-access/sign-in-failure.repository.ts";
import { anonymous, codeOf, errorOf, startIdentity, type TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };
const PASSWORD = "correct horse battery";
const MINUTE = 60_000;
let emails = 0;

/** Dashboard sign-in limits per account and per client address, kept in the store (docs/decisions/0004-sign-in-limits.md). */
describe.each(variants)("dashboard sign-in limits over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let clock: TestClock;
  let merchantId: string;

  /** An active dashboard user's email. */
  async function activeUser(): Promise<string> {
    const email = `limits${++emails}-${Date.now()}@shop.example`;
    const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchantId, email, role: "viewer" }, admin);
    await client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous);
    return email;
  }
  const signIn = (email: string, password: string, client_address?: string) => client.call(signInOp, { email, password, client_address }, anonymous);

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, store, clock } = await startIdentity(variant));
    merchantId = (await client.call(createMerchantOp, { name: "Acme" }, admin)).merchant.id;
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason)("limits", () => {
    it("slows 30 guesses at one email from 30 addresses after the 5th: 429 with Retry-After, the right password too", async () => {
      const email = await activeUser();
      const outcomes: string[] = [];
      for (let i = 0; i < 30; i++) outcomes.push(await codeOf(signIn(email, `guess ${i}`, `198.51.100.${i + 1}`)));
      expect(outcomes).toEqual([...Array(4).fill("invalid_credentials"), ...Array(26).fill("too_many_attempts")]);
      const refused = await errorOf(signIn(email, PASSWORD, "192.0.2.200"));
      expect(refused).toMatchObject({ code: "too_many_attempts", retryAfter: 60 });
      // The same answer as for a wrong password: the delay says nothing of the guess.
      const wrong = await errorOf(signIn(email, "another guess", "192.0.2.201"));
      expect({ code: wrong.code, message: wrong.message, retryAfter: wrong.retryAfter }).toEqual({ code: refused.code, message: refused.message, retryAfter: refused.retryAfter });
    });

    it("grows the delay with each guess tried after one, up to 15 minutes, and lets the right password in once it ends", async () => {
      const email = await activeUser();
      for (let i = 0; i < 4; i++) await codeOf(signIn(email, "wrong", "203.0.113.1"));
      const delays = [(await errorOf(signIn(email, "wrong", "203.0.113.2"))).retryAfter];
      for (let i = 0; i < 5; i++) {
        clock.advance(delays[delays.length - 1]! * 1000);
        delays.push((await errorOf(signIn(email, "wrong", `203.0.113.${i + 3}`))).retryAfter);
      }
      expect(delays).toEqual([60, 120, 240, 480, 900, 900]);
      expect(await codeOf(signIn(email, PASSWORD, "203.0.113.20"))).toBe("too_many_attempts");
      clock.advance(900_000);
      await expect(signIn(email, PASSWORD, "203.0.113.20")).resolves.toMatchObject({ session_token: expect.any(String) });
      // Signed in: the account's count starts afresh.
      for (let i = 0; i < 4; i++) expect(await codeOf(signIn(email, "wrong", "203.0.113.21"))).toBe("invalid_credentials");
    });

    it("starts an account's count afresh after a quiet window", async () => {
      const email = await activeUser();
      for (let i = 0; i < 4; i++) await codeOf(signIn(email, "wrong", "203.0.113.30"));
      clock.advance(15 * MINUTE);
      for (let i = 0; i < 4; i++) expect(await codeOf(signIn(email, "wrong", "203.0.113.31"))).toBe("invalid_credentials");
      expect(await codeOf(signIn(email, PASSWORD, "203.0.113.31"))).toBe("resolved");
    });

    it("slows one address trying 12 emails twice each, and not another address", async () => {
      const users = await Promise.all(Array.from({ length: 12 }, () => activeUser()));
      const outcomes: string[] = [];
      for (const email of users) for (let i = 0; i < 2; i++) outcomes.push(await codeOf(signIn(email, `guess ${i}`, "2001:db8:77::1")));
      expect(outcomes).toEqual([...Array(19).fill("invalid_credentials"), ...Array(5).fill("too_many_attempts")]);
      // Its /64 is one client; a right password from it waits too; another address goes on.
      expect(await codeOf(signIn(users[0]!, PASSWORD, "2001:db8:77::2"))).toBe("too_many_attempts");
      expect(await codeOf(signIn(users[0]!, PASSWORD, "203.0.113.40"))).toBe("resolved");
    });

    it("does not hold an address's good sign-ins against it", async () => {
      const email = await activeUser();
      for (let i = 0; i < 25; i++) expect(await codeOf(signIn(email, PASSWORD, "203.0.113.50"))).toBe("resolved");
    });

    it("tries at most 5 of 20 racing guesses at one account", async () => {
      const email = await activeUser();
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => codeOf(signIn(email, `guess ${i}`, `198.18.0.${i + 1}`))));
      expect(outcomes.filter((o) => o === "invalid_credentials").length).toBeLessThanOrEqual(4);
      expect(outcomes.filter((o) => o !== "invalid_credentials").every((o) => o === "too_many_attempts")).toBe(true);
    });

    it("keeps the counts in the store, under their expiry index, and purges those that ended", async () => {
      const email = await activeUser();
      await codeOf(signIn(email, "wrong", "203.0.113.60"));
      const failures = new SignInFailureRepository(store);
      // Every earlier test's records have ended two hours on; this one's as well.
      clock.advance(120 * MINUTE);
      expect(await failures.purge(new Date(clock.t).toISOString(), 1_000)).toBeGreaterThan(0);
      expect(await failures.purge(new Date(clock.t).toISOString(), 1_000)).toBe(0);
    });
  });
});
