import { createLinkTokenOp, exchangePublicTokenOp, type UserPrincipal } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { as, codeOf, consumer, startPayments, type PaymentsHarness } from "./support/payments-harness.ts";

const variants = await infraVariants();

describe.each(variants)("payments.createLinkToken over $name", (variant) => {
  let h: PaymentsHarness;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startPayments(variant);
  });
  afterAll(() => variant.cleanup());

  const createLink = (user: UserPrincipal, checkoutId: string, linkToken: string) =>
    h.client.call(createLinkTokenOp, { checkout_id: checkoutId, link_token: linkToken }, as(user));

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("answers a sandbox bank-linking token valid for 4 hours and claims the checkout", async () => {
      const { id, linkToken } = await h.checkout();
      const ada = consumer();
      const out = await createLink(ada, id, linkToken);
      expect(out).toEqual({
        link_token: expect.stringMatching(/^link-sandbox-[0-9a-f-]{36}$/),
        expiration: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        request_id: expect.any(String),
      });
      const hours = (Date.parse(out.expiration) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(3.99);
      expect(hours).toBeLessThanOrEqual(4);
      expect(await h.store.collection("checkout_claims").find({ _id: id })).toEqual([
        { _id: id, userId: ada.userId, claimedAt: expect.any(String) },
      ]);
    });

    it("lets the claiming consumer come back, and answers 409 checkout_claimed to anyone else", async () => {
      const { id, linkToken } = await h.checkout();
      const ada = consumer();
      const bob = consumer();
      const first = await createLink(ada, id, linkToken);
      const again = await createLink(ada, id, linkToken);
      expect(again.link_token).not.toBe(first.link_token);
      const err = await createLink(bob, id, linkToken).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "checkout_claimed", status: 409, param: "checkout_id" });
      const exchange = h.client.call(
        exchangePublicTokenOp,
        { checkout_id: id, link_token: linkToken, public_token: "public-sandbox-x", bankdata_account_id: "acc" },
        as(bob),
      );
      expect(await codeOf(exchange)).toBe("checkout_claimed");
    });

    it("gives a checkout to exactly one of 20 racing consumers", async () => {
      const { id, linkToken } = await h.checkout();
      const racers = Array.from({ length: 20 }, () => consumer());
      const results = await Promise.allSettled(racers.map((user) => createLink(user, id, linkToken)));
      const winners = racers.filter((_, i) => results[i]!.status === "fulfilled");
      expect(winners).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect((r.reason as { code: string }).code).toBe("checkout_claimed");
      const claims = await h.store.collection<{ _id: string; userId: string }>("checkout_claims").find({ _id: id });
      expect(claims.map((c) => c.userId)).toEqual([winners[0]!.userId]);
      // The winner keeps its checkout; a loser retrying still loses.
      await expect(createLink(winners[0]!, id, linkToken)).resolves.toBeTruthy();
      expect(await codeOf(createLink(racers.find((r) => r !== winners[0])!, id, linkToken))).toBe("checkout_claimed");
    });

    it("passes on the checkout service's link-token refusals and claims nothing", async () => {
      const a = await h.checkout();
      const b = await h.checkout();
      const ada = consumer();
      expect(await codeOf(createLink(ada, a.id, "not-a-token"))).toBe("link_token_invalid");
      expect(await codeOf(createLink(ada, a.id, b.linkToken))).toBe("link_token_mismatch");
      expect(await h.store.collection("checkout_claims").countDocuments({ _id: a.id })).toBe(0);
    });

    it("refuses checkouts whose transfer has started", async () => {
      const { id, linkToken } = await h.checkout();
      await h.store.collection("checkouts").findOneAndUpdate({ _id: id }, { $set: { status: "paid" } });
      expect(await codeOf(createLink(consumer(), id, linkToken))).toBe("checkout_closed");
    });

    it("answers consumers only", async () => {
      const { id, linkToken } = await h.checkout();
      const call = h.client.call(createLinkTokenOp, { checkout_id: id, link_token: linkToken }, as(h.merchant));
      expect(await codeOf(call)).toBe("permission_denied");
    });
  });
});
