import { getVerificationCodeOp, resolveAuthTokenOp, sendCodeOp, verifyCodeOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { sha256Hex } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { aMerchant, anonymous, codeOf, errorOf, freshPhone, lastCode, startIdentity, type TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe.each(variants)("verification codes over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let clock: TestClock;

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, store, clock } = await startIdentity(variant));
  });
  afterAll(() => variant.cleanup());

  const send = (phone: string) => client.call(sendCodeOp, { phone }, anonymous);
  const verify = (phone: string, verification_code: string) => client.call(verifyCodeOp, { phone, verification_code }, anonymous);
  /** A six-digit code that is not `code`. */
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("texts a 6-digit code and exchanges it once for a token of a new user", async () => {
      const phone = freshPhone();
      expect(await send(phone)).toEqual({ success: "Verification code sent" });
      const sent = await client.call(getVerificationCodeOp, { phone }, aMerchant);
      expect(sent).toEqual({ phone, code: expect.stringMatching(/^\d{6}$/), expires_at: new Date(clock.t + 10 * MINUTE).toISOString() });

      const out = await verify(phone, sent.code);
      expect(out).toEqual({
        message: "Authentication complete",
        data: { auth_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), user_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
      });
      const who = await client.call(resolveAuthTokenOp, { auth_token: out.data.auth_token }, anonymous);
      // A sandbox token names the merchant that read its code (docs/decisions/0001-sandbox-tenancy.md).
      expect(who).toEqual({ user_id: out.data.user_id, phone, token_id: expect.any(String), merchant_id: aMerchant.principal.merchantId });
      // Consumed: the same code does not work twice.
      expect(await codeOf(verify(phone, sent.code))).toBe("invalid_verification_code");

      // The phone's next verification finds the same user and issues another token.
      clock.advance(30 * SECOND);
      await send(phone);
      const again = await verify(phone, await lastCode(client, phone));
      expect(again.data.user_id).toBe(out.data.user_id);
      expect(again.data.auth_token).not.toBe(out.data.auth_token);
    });

    it("normalises numbers to E.164 wherever they are written", async () => {
      await send("  +1 (415) 555-7001 ");
      const code = await lastCode(client, "+14155557001");
      // Digits alone are accepted by the sandbox read-back (a `+` is easily lost in a URL).
      expect(await lastCode(client, "14155557001")).toBe(code);
      await expect(verify("+1 415.555.7001", code)).resolves.toMatchObject({ message: "Authentication complete" });
      await send("+44 20 7183 8750");
      expect((await client.call(getVerificationCodeOp, { phone: "+442071838750" }, aMerchant)).phone).toBe("+442071838750");
    });

    it("refuses what is not a possible phone number, naming the field", async () => {
      for (const phone of ["555-0100", "+1555", "+999123456789", "abc", "+1 415 555 2671 ext 12", "+1-800-FLOWERS", "++14155552671", "+14155552671; drop"]) {
        const err = await errorOf(send(phone));
        expect([err.code, err.param], phone).toEqual(["invalid_phone_number", "phone"]);
        expect((await errorOf(verify(phone, "123456"))).code, phone).toBe("invalid_phone_number");
      }
    });

    it("refuses a code once its 10 minutes are over", async () => {
      const early = freshPhone();
      const late = freshPhone();
      await send(early);
      await send(late);
      clock.advance(10 * MINUTE - 1);
      await expect(verify(early, await lastCode(client, early))).resolves.toBeTruthy();
      clock.advance(1);
      const err = await errorOf(verify(late, await lastCode(client, late)));
      expect([err.code, err.status]).toEqual(["verification_code_expired", 401]);
    });

    it("never accepts one phone's code for another", async () => {
      const a = freshPhone();
      const b = freshPhone();
      await send(a);
      await send(b);
      const codeA = await lastCode(client, a);
      const codeB = await lastCode(client, b);
      if (codeA !== codeB) expect(await codeOf(verify(b, codeA))).toBe("invalid_verification_code");
      // A phone that was never sent a code.
      expect(await codeOf(verify(freshPhone(), codeA))).toBe("invalid_verification_code");
      await expect(verify(a, codeA)).resolves.toBeTruthy();
      await expect(verify(b, codeB)).resolves.toBeTruthy();
    });

    it("kills a code at the fifth wrong attempt, after which even the right code fails", async () => {
      const phone = freshPhone();
      await send(phone);
      const code = await lastCode(client, phone);
      for (let i = 1; i <= 4; i++) expect(await codeOf(verify(phone, wrong(code))), `attempt ${i}`).toBe("invalid_verification_code");
      const fifth = await errorOf(verify(phone, wrong(code)));
      // Retry-After says when a new code can be requested: 30 s after the send (the clock stood still).
      expect([fifth.code, fifth.status, fifth.retryAfter]).toEqual(["too_many_attempts", 429, 30]);
      expect(await codeOf(verify(phone, code))).toBe("too_many_attempts");
      expect(await codeOf(verify(phone, "nonsense"))).toBe("too_many_attempts");
      // A new code starts afresh.
      clock.advance(30 * SECOND);
      await send(phone);
      await expect(verify(phone, await lastCode(client, phone))).resolves.toBeTruthy();
    });

    it("counts 20 concurrent wrong attempts exactly: four 401s, then 429s", async () => {
      const phone = freshPhone();
      await send(phone);
      const code = await lastCode(client, phone);
      const codes = await Promise.all(Array.from({ length: 20 }, () => codeOf(verify(phone, wrong(code)))));
      expect(codes.filter((c) => c === "invalid_verification_code")).toHaveLength(4);
      expect(codes.filter((c) => c === "too_many_attempts")).toHaveLength(16);
      expect((await store.collection<{ _id: string; attempts: number }>("verification_codes").findOne({ _id: phone }))!.attempts).toBe(5);
    });

    it("lets one code be sent per 30 seconds and five per hour, with Retry-After", async () => {
      const phone = freshPhone();
      const start = clock.t;
      await send(phone);
      let err = await errorOf(send(phone));
      expect([err.code, err.status, err.retryAfter]).toEqual(["rate_limited", 429, 30]);
      clock.advance(29 * SECOND);
      expect((await errorOf(send(phone))).retryAfter).toBe(1);
      clock.advance(1 * SECOND);
      for (let i = 2; i <= 5; i++) {
        await send(phone);
        clock.advance(30 * SECOND);
      }
      // Five sent at 0, 30, 60, 90 and 120 s; now is 150 s: the first leaves the hour at 3600 s.
      err = await errorOf(send(phone));
      expect([err.code, err.retryAfter]).toEqual(["rate_limited", 3600 - 150]);
      clock.t = start + 60 * MINUTE - 1;
      expect((await errorOf(send(phone))).retryAfter).toBe(1);
      clock.t = start + 60 * MINUTE;
      await expect(send(phone)).resolves.toEqual({ success: "Verification code sent" });
      // Refused requests did not count: the next one is due 30 s after the last send.
      expect((await errorOf(send(phone))).retryAfter).toBe(30);
    });

    it("replaces the old code when a new one is sent", async () => {
      const phone = freshPhone();
      await send(phone);
      const first = await lastCode(client, phone);
      let second = first;
      // Two equal codes in a row (one chance in a million) would prove nothing: send again.
      while (second === first) {
        clock.advance(30 * SECOND);
        await send(phone);
        second = await lastCode(client, phone);
      }
      expect(await codeOf(verify(phone, first))).toBe("invalid_verification_code");
      await expect(verify(phone, second)).resolves.toBeTruthy();
    });

    it("gives exactly one token to 20 concurrent verifications of one correct code", async () => {
      const phone = freshPhone();
      await send(phone);
      const code = await lastCode(client, phone);
      const results = await Promise.all(Array.from({ length: 20 }, () => verify(phone, code).then((r) => r.data.auth_token, (e: Error) => e)));
      const tokens = results.filter((r): r is string => typeof r === "string");
      expect(tokens).toHaveLength(1);
      expect(results.filter((r) => r instanceof Error).map((e) => (e as { code?: string }).code)).toEqual(Array(19).fill("invalid_verification_code"));
      expect(await uncheckedStore(store).collection("auth_tokens").countDocuments({ phone })).toBe(1);
    });

    it("texts one code when 20 sends for a phone race", async () => {
      const phone = freshPhone();
      const codes = await Promise.all(Array.from({ length: 20 }, () => codeOf(send(phone))));
      expect(codes.filter((c) => c === "resolved")).toHaveLength(1);
      expect(codes.filter((c) => c === "rate_limited")).toHaveLength(19);
    });

    it("stores codes only as keyed hashes", async () => {
      const phone = freshPhone();
      await send(phone);
      const code = await lastCode(client, phone);
      const doc = await store.collection<{ _id: string; codeHash: string }>("verification_codes").findOne({ _id: phone });
      const text = JSON.stringify(doc);
      expect(text).not.toContain(code);
      expect(doc!.codeHash).toMatch(/^[0-9a-f]{64}$/);
      // Not a plain hash an attacker with the database could recompute from a million guesses.
      for (const guess of [code, `${phone}${code}`, `${phone}\n${code}`, `${phone}:${code}`]) expect(doc!.codeHash).not.toBe(sha256Hex(guess));
      // The code a merchant reads back is derived, never stored (its use is recorded in
      // scoped-codes.contract.test.ts; a used live code's hash is cleared, tested there too).
      await verify(phone, code);
      expect(JSON.stringify(await store.collection("verification_codes").findOne({ _id: phone }))).not.toContain(code);
    });
  });
});
