import { getVerificationCodeOp, resolveAuthTokenOp, sendCodeOp, verifyCodeOp } from "@payrail/contracts";
import { uncheckedStore } from "@payrail/store/testing";
import { describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { MAX_SCOPES } from "../src/domain/scoped-codes.ts";
import { aMerchant, anonymous, codeOf, errorOf, freshPhone, withIdentity } from "./support/identity-harness.ts";

const variants = await infraVariants();
const SECOND = 1000;

/** A merchant's api-key call context (its id: `mer_` and 32 hex). */
const merchant = (hex: string) => ({ ...aMerchant, principal: { ...aMerchant.principal, merchantId: `mer_${hex.repeat(32 / hex.length)}` } });
const A = merchant("a");
const B = merchant("b");

/**
 * docs/decisions/0001-sandbox-tenancy.md: in the sandbox a code read back by merchant M is M's
 * own, and its token reaches M's records only; the texted code yields nothing there. Live mode
 * (real SMS) keeps its unscoped tokens (twilio.adapter.test.ts).
 */
describe.each(variants)("sandbox codes per merchant over $name", (variant) => {
  const identity = withIdentity(variant);

  const send = (phone: string) => identity.client.call(sendCodeOp, { phone }, anonymous);
  const read = async (ctx: typeof A, phone: string) => (await identity.client.call(getVerificationCodeOp, { phone }, ctx)).code;
  const verify = (phone: string, verification_code: string) => identity.client.call(verifyCodeOp, { phone, verification_code }, anonymous);
  const resolve = (auth_token: string) => identity.client.call(resolveAuthTokenOp, { auth_token }, anonymous);

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("gives each reading merchant its own code, whose token names that merchant, each good once", async () => {
      const phone = freshPhone();
      await send(phone);
      const codeA = await read(A, phone);
      const codeB = await read(B, phone);
      expect(codeA).toMatch(/^\d{6}$/);
      expect(codeB).not.toBe(codeA);
      // A second read answers the same code, as a text read twice would.
      expect(await read(A, phone)).toBe(codeA);

      const asB = await verify(phone, codeB);
      expect(await resolve(asB.data.auth_token)).toEqual({ user_id: asB.data.user_id, phone, token_id: expect.any(String), merchant_id: B.principal.merchantId });
      // B's sign-in consumed B's code only: A's consumer still signs in with A's.
      const asA = await verify(phone, codeA);
      expect(asA.data.user_id).toBe(asB.data.user_id);
      expect((await resolve(asA.data.auth_token)).merchant_id).toBe(A.principal.merchantId);
      expect(await codeOf(verify(phone, codeA))).toBe("invalid_verification_code");
      expect(await codeOf(verify(phone, codeB))).toBe("invalid_verification_code");
    });

    it("refuses the texted code itself: nobody can read it back, so it must open nothing", async () => {
      const phone = freshPhone();
      await send(phone);
      const outbox = await uncheckedStore(identity.store).collection<{ _id: string; text: string }>("sandbox_sms_outbox").findOne({ _id: phone });
      const texted = /\b(\d{6})\b/.exec(outbox!.text)![1]!;
      expect(await codeOf(verify(phone, texted))).toBe("invalid_verification_code");
      await expect(verify(phone, await read(A, phone))).resolves.toMatchObject({ message: "Authentication complete" });
    });

    it("voids what merchants read when a new code is sent", async () => {
      const phone = freshPhone();
      await send(phone);
      const first = await read(A, phone);
      identity.clock.advance(30 * SECOND);
      await send(phone);
      const second = await read(A, phone);
      if (second !== first) expect(await codeOf(verify(phone, first))).toBe("invalid_verification_code");
      await expect(verify(phone, second)).resolves.toBeTruthy();
    });

    it("keeps no merchant's code in the store, only who read and whether it was used", async () => {
      const phone = freshPhone();
      await send(phone);
      const codeA = await read(A, phone);
      const codeB = await read(B, phone);
      await verify(phone, codeA);
      const doc = await identity.store.collection<{ _id: string; scopes: Record<string, { consumedAt: string | null }> }>("verification_codes").findOne({ _id: phone });
      const text = JSON.stringify(doc);
      expect(text).not.toContain(codeA);
      expect(text).not.toContain(codeB);
      expect(doc!.scopes[A.principal.merchantId]!.consumedAt).toEqual(expect.any(String));
      expect(doc!.scopes[B.principal.merchantId]!.consumedAt).toBeNull();
    });

    it("gives one token to 20 concurrent verifications of one merchant's code, and different codes to 10 racing readers", async () => {
      const phone = freshPhone();
      await send(phone);
      const readers = Array.from({ length: 10 }, (_, i) => merchant(i.toString(16).padStart(2, "c")));
      const codes = await Promise.all(readers.map((r) => read(r, phone)));
      expect(new Set(codes).size).toBe(10);
      const results = await Promise.all(Array.from({ length: 20 }, () => verify(phone, codes[0]!).then(() => "ok", (e: Error) => e.message)));
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
    });

    it(`lets at most ${MAX_SCOPES} merchants read one code`, async () => {
      const phone = freshPhone();
      await send(phone);
      for (let i = 0; i < MAX_SCOPES; i++) await read(merchant(i.toString(16).padStart(2, "d")), phone);
      const err = await errorOf(read(merchant("ef"), phone));
      expect([err.code, err.status, err.param]).toEqual(["rate_limited", 429, "phone"]);
      // The readers that got in still can.
      await expect(read(merchant("d0"), phone)).resolves.toMatch(/^\d{6}$/);
    });
  });
});
