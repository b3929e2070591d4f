import {
  acceptInvitationOp,
  confirmTotpEnrolmentOp,
  createMerchantOp,
  disableTotpOp,
  getTwoFactorStatusOp,
  inviteMerchantUserOp,
  resolveDashboardSessionOp,
  setTeamTwoFactorOp,
  signInOp,
  signInSecondStepOp,
  startTotpEnrolmentOp,
  type DashboardRole,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { anonymous, codeOf, errorOf, startIdentity, type TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };
const PASSWORD = "correct horse battery";
let emails = 0;

/** The code an authenticator app shows at `at` (ms), computed with the same library. */
const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });

/** TOTP enrolment, the second sign-in step, recovery codes and the team's rule (docs/decisions/0052-dashboard-two-factor-and-reset.md). */
describe.each(variants)("dashboard two-factor over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let clock: TestClock;
  let merchantId: string;

  /** An active user and the principal the dashboard sends for them. */
  async function member(role: DashboardRole = "admin", merchant = merchantId) {
    const email = `totp${++emails}-${Date.now()}@shop.example`;
    const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchant, email, role }, admin);
    await client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous);
    const as = { requestId: "req_test", principal: { kind: "merchant" as const, merchantId: merchant, keyPrefix: `dashboard:${invited.user.id}`, livemode: false, userId: invited.user.id, role } };
    return { email, id: invited.user.id, as };
  }

  /** A member with two-factor on: its secret and recovery codes. */
  async function enrolled(role: DashboardRole = "admin") {
    const user = await member(role);
    const started = await client.call(startTotpEnrolmentOp, {}, user.as);
    const { recovery_codes } = await client.call(confirmTotpEnrolmentOp, { code: codeAt(started.secret, clock.now()) }, user.as);
    // The next code is of a later step: the one enrolment took cannot sign in.
    clock.advance(30_000);
    return { ...user, secret: started.secret, recoveryCodes: recovery_codes };
  }

  async function challenge(email: string): Promise<string> {
    const first = await client.call(signInOp, { email, password: PASSWORD }, anonymous);
    if (!("two_factor_token" in first)) throw new Error("expected a two-factor challenge");
    return first.two_factor_token;
  }
  const secondStep = (token: string, code: string) => client.call(signInSecondStepOp, { two_factor_token: token, code }, anonymous);

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, store, clock } = await startIdentity(variant));
    merchantId = (await client.call(createMerchantOp, { name: "Acme" }, admin)).merchant.id;
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason)("two-factor", () => {
    it("enrols: an otpauth URI, the secret sealed at rest, 10 recovery codes stored hashed; a wrong code does not enable it", async () => {
      const user = await member();
      const started = await client.call(startTotpEnrolmentOp, {}, user.as);
      expect(started.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Payrail:.+\?.*secret=[A-Z2-7]+/);
      expect(started.otpauth_uri).toContain("period=30");
      expect(await codeOf(client.call(confirmTotpEnrolmentOp, { code: "000000" === codeAt(started.secret, clock.now()) ? "111111" : "000000" }, user.as))).toBe("invalid_two_factor_code");
      expect(await client.call(getTwoFactorStatusOp, {}, user.as)).toMatchObject({ enabled: false });
      const { recovery_codes } = await client.call(confirmTotpEnrolmentOp, { code: codeAt(started.secret, clock.now()) }, user.as);
      expect(recovery_codes).toHaveLength(10);
      expect(new Set(recovery_codes).size).toBe(10);
      const stored = JSON.stringify(await uncheckedStore(store).collection("merchant_users").findOne({ _id: user.id }));
      expect(stored).not.toContain(started.secret);
      for (const code of recovery_codes) expect(stored).not.toContain(code);
      expect(await client.call(getTwoFactorStatusOp, {}, user.as)).toEqual({ enabled: true, recovery_codes_left: 10, team_requires: false });
      expect(await codeOf(client.call(startTotpEnrolmentOp, {}, user.as))).toBe("two_factor_enabled");
    });

    it("signs in with a password and then a code; the same code (its time step) is refused after", async () => {
      const user = await enrolled();
      const token = await challenge(user.email);
      // The challenge is no session.
      expect(await codeOf(client.call(resolveDashboardSessionOp, { session_token: token }, anonymous))).toBe("session_invalid");
      const code = codeAt(user.secret, clock.now());
      const session = await secondStep(token, code);
      expect((await client.call(resolveDashboardSessionOp, { session_token: session.session_token }, anonymous)).user.id).toBe(user.id);
      // The challenge is spent; and the code, replayed in a new sign-in within its step, is refused.
      expect(await codeOf(secondStep(token, code))).toBe("session_invalid");
      expect(await codeOf(secondStep(await challenge(user.email), code))).toBe("invalid_two_factor_code");
      clock.advance(30_000);
      await expect(secondStep(await challenge(user.email), codeAt(user.secret, clock.now()))).resolves.toMatchObject({ session_token: expect.any(String) });
    });

    it("takes a recovery code once, dashes and case as typed", async () => {
      const user = await enrolled();
      const recovery = user.recoveryCodes[3]!;
      await expect(secondStep(await challenge(user.email), recovery.toUpperCase().replaceAll("-", ""))).resolves.toMatchObject({ session_token: expect.any(String) });
      expect(await codeOf(secondStep(await challenge(user.email), recovery))).toBe("invalid_two_factor_code");
      expect((await client.call(getTwoFactorStatusOp, {}, user.as)).recovery_codes_left).toBe(9);
    });

    it("counts wrong codes as failed sign-ins: the 5th in 15 minutes starts the delay, and a right password does not clear it", async () => {
      const user = await enrolled();
      const right = codeAt(user.secret, clock.now());
      const wrong = right === "123456" ? "654321" : "123456";
      const outcomes: string[] = [];
      for (let i = 0; i < 5; i++) outcomes.push(await codeOf(secondStep(await challenge(user.email), wrong)));
      expect(outcomes).toEqual([...Array(4).fill("invalid_two_factor_code"), "too_many_attempts"]);
      // Password and code both right: still in the delay, answered unchecked.
      expect(await errorOf(client.call(signInOp, { email: user.email, password: PASSWORD }, anonymous))).toMatchObject({ code: "too_many_attempts", retryAfter: 60 });
      clock.advance(60_000);
      await expect(secondStep(await challenge(user.email), codeAt(user.secret, clock.now()))).resolves.toMatchObject({ session_token: expect.any(String) });
    });

    it("turns off only with a current code or a recovery code", async () => {
      const user = await enrolled();
      expect(await codeOf(client.call(disableTotpOp, { code: "not-a-code" }, user.as))).toBe("invalid_two_factor_code");
      await client.call(disableTotpOp, { code: user.recoveryCodes[0]! }, user.as);
      expect((await client.call(getTwoFactorStatusOp, {}, user.as)).enabled).toBe(false);
      await expect(client.call(signInOp, { email: user.email, password: PASSWORD }, anonymous)).resolves.toMatchObject({ session_token: expect.any(String) });
    });

    it("holds a team's members without two-factor at enrolment once an owner requires it; only owners set it", async () => {
      const merchant = (await client.call(createMerchantOp, { name: "Strict" }, admin)).merchant.id;
      const owner = await member("owner", merchant);
      const viewer = await member("viewer", merchant);
      const adminUser = await member("admin", merchant);
      expect(await codeOf(client.call(setTeamTwoFactorOp, { merchant_id: merchant, required: true }, adminUser.as))).toBe("permission_denied");
      expect(await codeOf(client.call(setTeamTwoFactorOp, { merchant_id: merchantId, required: true }, owner.as))).toBe("permission_denied");
      expect(await client.call(setTeamTwoFactorOp, { merchant_id: merchant, required: true }, owner.as)).toEqual({ required: true });
      const first = await client.call(signInOp, { email: viewer.email, password: PASSWORD }, anonymous);
      if (!("session_token" in first)) throw new Error("a user without two-factor gets a session to enrol in");
      expect((await client.call(resolveDashboardSessionOp, { session_token: first.session_token }, anonymous)).must_enrol).toBe(true);
      const started = await client.call(startTotpEnrolmentOp, {}, viewer.as);
      await client.call(confirmTotpEnrolmentOp, { code: codeAt(started.secret, clock.now()) }, viewer.as);
      expect((await client.call(resolveDashboardSessionOp, { session_token: first.session_token }, anonymous)).must_enrol).toBe(false);
      // Enrolled, it cannot be turned off while the rule holds; the next sign-in asks for a code.
      clock.advance(30_000);
      expect(await codeOf(client.call(disableTotpOp, { code: codeAt(started.secret, clock.now()) }, viewer.as))).toBe("permission_denied");
      expect(await client.call(signInOp, { email: viewer.email, password: PASSWORD }, anonymous)).toMatchObject({ two_factor_token: expect.any(String) });
      // Members of another merchant are not held.
      const other = await member("viewer");
      const free = await client.call(signInOp, { email: other.email, password: PASSWORD }, anonymous);
      if (!("session_token" in free)) throw new Error("expected a session");
      expect((await client.call(resolveDashboardSessionOp, { session_token: free.session_token }, anonymous)).must_enrol).toBe(false);
    });

    it("lets a challenge expire after 5 minutes", async () => {
      const user = await enrolled();
      const token = await challenge(user.email);
      clock.advance(5 * 60_000);
      expect(await codeOf(secondStep(token, codeAt(user.secret, clock.now())))).toBe("session_invalid");
    });

    it("refuses two-factor changes by an API key (no dashboard user)", async () => {
      const apiKey = { requestId: "req_test", principal: { kind: "merchant" as const, merchantId, keyPrefix: "sk_test_abcdefgh", livemode: false } };
      expect(await codeOf(client.call(startTotpEnrolmentOp, {}, apiKey))).toBe("permission_denied");
    });
  });
});
