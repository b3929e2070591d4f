import {
  AppError,
  createCheckoutOp,
  generateLinkTokenOp,
  verifyLinkTokenOp,
  type Principal,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { randomToken, sha256Hex, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantPrincipal, sampleCheckout } from "../../../test/support/fixtures.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { start } from "../src/index.ts";

const variants = await infraVariants();

describe.each(variants)("checkout link tokens for bank linking over $name", (variant) => {
  let client: Transport;
  let store: Store;
  const merchant = merchantPrincipal();
  const consumer: Principal = { kind: "user", userId: "a".repeat(32), phone: "+15555550100" };
  const as = (principal: Principal) => ({ requestId: "req_test", principal });

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    await start({ transport: await variant.transport(), store, logger: silentLogger() });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const newCheckout = async (overrides: Record<string, unknown> = {}) => {
    const { id } = await client.call(createCheckoutOp, { checkout: sampleCheckout(overrides) as never }, as(merchant));
    const { link_token } = await client.call(generateLinkTokenOp, { checkout_id: id }, as(merchant));
    return { id, linkToken: link_token };
  };
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "resolved",
      (e: unknown) => (e instanceof AppError ? e.code : String(e)),
    );
  const verify = (checkoutId: string, linkToken: string, who: Principal = consumer) =>
    client.call(verifyLinkTokenOp, { checkout_id: checkoutId, link_token: linkToken }, as(who));

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("answers the checkout summary payments needs for a valid link token", async () => {
      const { id, linkToken } = await newCheckout({ is_subscription: true, plan_type: "monthly", transaction_purpose: "services" });
      const summary = await verify(id, linkToken);
      expect(summary).toEqual({
        id,
        number: expect.any(Number),
        merchant_id: merchant.merchantId,
        status: "open",
        amount_cents: 10750,
        currency: "USD",
        is_subscription: true,
        plan_type: "monthly",
        transaction_purpose: "services",
      });
      expect(Number.isInteger(summary.number)).toBe(true);
    });

    it("refuses unknown, expired and other checkouts' link tokens with distinct codes", async () => {
      const a = await newCheckout();
      const b = await newCheckout();
      expect(await codeOf(verify(a.id, randomToken(32)))).toBe("link_token_invalid");
      expect(await codeOf(verify(a.id, b.linkToken))).toBe("link_token_mismatch");
      expect(await codeOf(verify(`chk_${"0".repeat(32)}`, a.linkToken))).toBe("link_token_mismatch");

      const expired = randomToken(32);
      const past = new Date(Date.now() - 1000).toISOString();
      await store
        .collection<{ _id: string; checkoutId: string; merchantId: string; expiresAt: string; createdAt: string }>("link_tokens")
        .insertOne({ _id: sha256Hex(expired), checkoutId: a.id, merchantId: merchant.merchantId, expiresAt: past, createdAt: past });
      const err = await verify(a.id, expired).catch((e: AppError) => e);
      expect(err).toMatchObject({ code: "link_token_expired", status: 401 });
      // Older unexpired tokens of the same checkout keep working.
      await expect(verify(a.id, a.linkToken)).resolves.toMatchObject({ id: a.id });
    });

    it("answers consumers only", async () => {
      const { id, linkToken } = await newCheckout();
      expect(await codeOf(verify(id, linkToken, merchant))).toBe("permission_denied");
    });
  });
});
