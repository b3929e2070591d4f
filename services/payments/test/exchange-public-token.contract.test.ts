import { uncheckedStore } from "@payrail/store/testing";
import { createLinkTokenOp, exchangePublicTokenOp, getCheckoutOp, sandboxPublicTokenOp, type Principal, type UserPrincipal } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { SecretBox } from "@payrail/runtime";
import { as, codeOf, consumer, startPayments, type PaymentsHarness } from "./support/payments-harness.ts";

const variants = await infraVariants();
const MINUTE = 60_000;

describe.each(variants)("payments.exchangePublicToken and the sandbox public token over $name", (variant) => {
  let h: PaymentsHarness;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startPayments(variant);
  });
  afterAll(() => variant.cleanup());

  /** A checkout claimed by `user`, a bank-linking token, and the sandbox's public token and accounts. */
  const linked = async (user: UserPrincipal) => {
    const { id, linkToken } = await h.checkout();
    const bank = await h.client.call(createLinkTokenOp, { checkout_id: id, link_token: linkToken }, as(user));
    const sandbox = await h.client.call(sandboxPublicTokenOp, { link_token: bank.link_token }, as(h.merchant));
    return { id, linkToken, bankLinkToken: bank.link_token, ...sandbox };
  };
  const exchange = (user: UserPrincipal, c: { id: string; linkToken: string }, publicToken: string, accountId = "acc") =>
    h.client.call(
      exchangePublicTokenOp,
      { checkout_id: c.id, link_token: c.linkToken, public_token: publicToken, bankdata_account_id: accountId },
      as(user),
    );
  /** The stored method without its outbox (the relay empties that as it publishes). */
  const methodOf = async (checkoutId: string) => {
    const doc = await h.store.collection<{ _id: string } & Record<string, string>>("payment_methods").findOne({ _id: checkoutId });
    if (!doc) return null;
    const { _outbox: _sent, outboxPending: _pending, outboxAt: _at, ...method } = doc;
    return method;
  };
  const statusOf = async (checkoutId: string) =>
    (await h.client.call(getCheckoutOp, { checkout_id: checkoutId }, as(h.merchant))).status;

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("saves the chosen account with the access token sealed, and moves the checkout on", async () => {
      const ada = consumer();
      const c = await linked(ada);
      expect(c.public_token).toMatch(/^public-sandbox-[0-9a-f-]{36}$/);
      expect(c.accounts.map(({ name, mask, subtype }) => ({ name, mask, subtype }))).toEqual([
        { name: "Plaid Checking", mask: "0000", subtype: "checking" },
        { name: "Plaid Saving", mask: "1111", subtype: "savings" },
        { name: "Unverifiable Checking", mask: "2222", subtype: "checking" },
      ]);
      const account = c.accounts[0]!.account_id;
      await expect(exchange(ada, c, c.public_token, account)).resolves.toEqual({ message: "Payment method saved" });
      // The checkout follows payments' payment_method.saved event, asynchronously.
      await vi.waitFor(async () => expect(await statusOf(c.id)).toBe("payment_method_saved"), { timeout: 15_000, interval: 25 });

      const method = (await methodOf(c.id))!;
      expect(method).toMatchObject({ userId: ada.userId, merchantId: h.merchant.merchantId, provider: "sandbox", accountId: account });
      expect(method.itemId).toMatch(/^item-sandbox-/);
      const accessToken = new SecretBox(h.secretsKey).open(method.accessTokenSealed!, c.id);
      expect(accessToken).toMatch(/^access-sandbox-[0-9a-f-]{36}$/);
      // Not in any stored document of payments in the clear, and never in a log line.
      for (const name of ["payment_methods", "checkout_claims", "sandbox_items", "sandbox_public_tokens"]) {
        expect(JSON.stringify(await uncheckedStore(h.store).collection(name).find({})), name).not.toContain(accessToken);
      }
      for (const secret of [accessToken, c.public_token, c.linkToken, c.bankLinkToken]) expect(h.logs()).not.toContain(secret);
    });

    it("refuses a used public token with 400 and keeps the saved method as it was", async () => {
      const ada = consumer();
      const c = await linked(ada);
      await exchange(ada, c, c.public_token, c.accounts[0]!.account_id);
      const before = await methodOf(c.id);
      const err = await exchange(ada, c, c.public_token, c.accounts[1]!.account_id).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "parameter_invalid", status: 400, param: "public_token", providerCode: "INVALID_PUBLIC_TOKEN" });
      expect(await methodOf(c.id)).toEqual(before);
    });

    it("lets the consumer re-link before the transfer: the new account replaces the old", async () => {
      const ada = consumer();
      const c = await linked(ada);
      await exchange(ada, c, c.public_token, c.accounts[0]!.account_id);
      const first = (await methodOf(c.id))!;
      const again = await h.client.call(sandboxPublicTokenOp, { link_token: c.bankLinkToken }, as(h.merchant));
      await expect(exchange(ada, c, again.public_token, again.accounts[1]!.account_id)).resolves.toEqual({ message: "Payment method saved" });
      const second = (await methodOf(c.id))!;
      expect(second).toMatchObject({ accountId: again.accounts[1]!.account_id, createdAt: first.createdAt });
      expect(second.itemId).not.toBe(first.itemId);
      await vi.waitFor(async () => expect(await statusOf(c.id)).toBe("payment_method_saved"), { timeout: 15_000, interval: 25 });
    });

    it("stores nothing when the public token is unknown or expired", async () => {
      const ada = consumer();
      const c = await linked(ada);
      expect(await codeOf(exchange(ada, c, "public-sandbox-00000000-0000-0000-0000-000000000000"))).toBe("parameter_invalid");
      h.clock.advance(31 * MINUTE);
      try {
        expect(await codeOf(exchange(ada, c, c.public_token))).toBe("parameter_invalid");
      } finally {
        h.clock.advance(-31 * MINUTE);
      }
      expect(await methodOf(c.id)).toBeNull();
      expect(await statusOf(c.id)).toBe("open");
    });

    it("lets a public token be exchanged once when 10 exchanges race", async () => {
      const ada = consumer();
      const c = await linked(ada);
      const results = await Promise.all(Array.from({ length: 10 }, () => codeOf(exchange(ada, c, c.public_token))));
      expect(results.filter((r) => r === "resolved")).toHaveLength(1);
      expect(results.filter((r) => r === "parameter_invalid")).toHaveLength(9);
    });

    it("checks the checkout before spending the public token", async () => {
      const ada = consumer();
      const c = await linked(ada);
      await h.store.collection("checkouts").findOneAndUpdate({ _id: c.id }, { $set: { status: "transfer_pending" } });
      expect(await codeOf(exchange(ada, c, c.public_token))).toBe("checkout_closed");
      expect(await methodOf(c.id)).toBeNull();
      // The public token was not consumed: it still links another checkout.
      const other = await h.checkout();
      await h.client.call(createLinkTokenOp, { checkout_id: other.id, link_token: other.linkToken }, as(ada));
      await expect(exchange(ada, other, c.public_token)).resolves.toEqual({ message: "Payment method saved" });
    });

    it("answers the sandbox public token only for live bank-linking tokens, and only to merchants", async () => {
      const ada = consumer();
      const c = await linked(ada);
      const sandbox = (linkToken: string, who: Principal = h.merchant) => h.client.call(sandboxPublicTokenOp, { link_token: linkToken }, as(who));
      const err = await sandbox(c.linkToken).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "parameter_invalid", param: "link_token" });
      expect(await codeOf(sandbox(c.bankLinkToken, ada))).toBe("permission_denied");
      h.clock.advance(4 * 60 * MINUTE + 1000);
      try {
        expect(await codeOf(sandbox(c.bankLinkToken))).toBe("parameter_invalid");
      } finally {
        h.clock.advance(-(4 * 60 * MINUTE + 1000));
      }
      await expect(sandbox(c.bankLinkToken)).resolves.toMatchObject({ public_token: expect.stringMatching(/^public-sandbox-/) });
    });
  });
});
