import { randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { withTwoMerchants } from "../../../test/support/stack.ts";
import { checkoutWithLinkToken, consumerToken, consumerTokensAt, randomPhone } from "./support/bank-linking.ts";
import { addOperator, payment, refundClient, requested } from "./support/refund-flow.ts";

const variants = await infraVariants();

/**
 * docs/decisions/0001-sandbox-tenancy.md: a sandbox merchant that reads a phone's code back gets
 * a token that reaches its own records only. The three takeovers of a shared sandbox (a consumer
 * who pays two merchants, another merchant's operator, a brand-new phone) are closed, while the
 * seed's flow (send_code, the code read with the api-key, verify_code) keeps working.
 */
describe.each(variants)("sandbox tenancy over $name", (variant) => {
  const world = withTwoMerchants(variant);
  const auth = (token: string) => ({ authorization: `Token ${token}` });
  const get = (url: string, token: string) => world.stack.app.inject({ url, headers: auth(token) });
  const transactionsOf = async (token: string) => {
    const reply = await get("/api/merchants/manage_subscription/get_subscription_details", token);
    expect(reply.statusCode, reply.body).toBe(200);
    return (reply.json() as { transaction_uuid: string }[]).map((t) => t.transaction_uuid);
  };
  /** The status and error body with the id it names blanked (and its request id), to compare a foreign record's answer with an unknown one's. */
  const errorOf = (reply: LightMyRequestResponse, id: string) => {
    const { request_id: _requestId, ...error } = JSON.parse(reply.body.replaceAll(id, "ID")).error as Record<string, unknown>;
    return { status: reply.statusCode, error };
  };

  describe.skipIf(!!variant.skipReason)("takeovers", () => {
    it("keeps a merchant's token for a consumer it shares with another merchant off the other's transactions", async () => {
      const [atAcme, atGlobex] = await consumerTokensAt(world.stack, [world.acme.apiKey, world.globex.apiKey]);
      const acmePaid = await payment(world.stack, world.acme.apiKey, "completed", {}, { consumer: atAcme });
      const globexPaid = await payment(world.stack, world.globex.apiKey, "completed", {}, { consumer: atGlobex });
      expect(atGlobex.userId).toBe(atAcme.userId);

      // Globex read the phone's code and signed in: Acme's transaction is as unknown to it as a made-up one.
      const refunds = refundClient(world.stack);
      const foreign = await refunds.request(auth(atGlobex.token), { transaction_uuid: acmePaid.uuid });
      const unknownUuid = randomUUID();
      const unknown = await refunds.request(auth(atGlobex.token), { transaction_uuid: unknownUuid });
      expect(foreign.statusCode).toBe(404);
      expect(errorOf(foreign, acmePaid.uuid)).toEqual(errorOf(unknown, unknownUuid));
      expect(await transactionsOf(atGlobex.token)).toEqual([globexPaid.uuid]);
      expect((await get("/api/merchants/refund_request/consumer_refund_list", atGlobex.token)).json()).toEqual([]);
      // The consumer's own Acme session still refunds it.
      expect((await requested(world.stack, acmePaid)).status).toBe("pending");
      expect(await transactionsOf(atAcme.token)).toEqual([acmePaid.uuid]);
    });

    it("keeps a merchant from acting as another merchant's operator who once paid it", async () => {
      const phone = randomPhone();
      const [atGlobex, atAcme] = await consumerTokensAt(world.stack, [world.globex.apiKey, world.acme.apiKey], phone);
      await payment(world.stack, world.globex.apiKey, "completed", {}, { consumer: atGlobex });
      expect((await addOperator(world.stack, world.acme.id, phone)).statusCode).toBe(200);
      const refund = await requested(world.stack, await payment(world.stack, world.acme.apiKey, "completed"));

      const refunds = refundClient(world.stack);
      const missing = `rfd_${"0".repeat(32)}`;
      for (const call of [
        (id: string) => refunds.decide(auth(atGlobex.token), id, "approved"),
        (id: string) => refunds.initiate(auth(atGlobex.token), id),
      ]) {
        const foreign = await call(refund.id);
        expect(foreign.statusCode).toBe(404);
        expect(errorOf(foreign, refund.id)).toEqual(errorOf(await call(missing), missing));
      }
      // Acme's own sign-in of its operator still decides and pays out.
      expect((await refunds.decide(auth(atAcme.token), refund.id, "approved")).json().refund.status).toBe("approved");
      const paid = await refunds.initiate(auth(atAcme.token), refund.id);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().refund.status).toBe("processing");
    });

    it("never shows a merchant that read a brand-new phone's first code the checkout its owner paid elsewhere", async () => {
      const phone = randomPhone();
      // The owner is in Acme's checkout; Acme and Globex both read the first code sent to the phone.
      const [owner, snoop] = await consumerTokensAt(world.stack, [world.acme.apiKey, world.globex.apiKey], phone);
      const paid = await payment(world.stack, world.acme.apiKey, "completed", {}, { consumer: owner });
      expect(await transactionsOf(owner.token)).toEqual([paid.uuid]);

      expect(await transactionsOf(snoop.token)).toEqual([]);
      expect(await transactionsOf(snoop.token)).not.toContain(paid.uuid);
      // The consumer portal, signed in with either token, likewise.
      const portal = (token: string) => world.stack.app.inject({ url: "/account/payments", headers: { cookie: `payrail_account=${token}`, accept: "text/html" } });
      const snooped = await portal(snoop.token);
      expect(snooped.statusCode).toBe(200);
      expect(snooped.body).toContain("No payments yet.");
      expect(snooped.body).not.toContain(paid.uuid);
      expect((await portal(owner.token)).body).toContain(paid.uuid);
    });
  });

  describe.skipIf(!!variant.skipReason)("every consumer operation", () => {
    it("answers another merchant's checkout and subscription to a merchant's token exactly as unknown ones", async () => {
      const [atAcme, atGlobex] = await consumerTokensAt(world.stack, [world.acme.apiKey, world.globex.apiKey]);
      const sub = await payment(world.stack, world.acme.apiKey, "completed", { is_subscription: true, plan_type: "monthly" }, { consumer: atAcme });
      const token = atGlobex.token;
      const inject = (method: "GET" | "POST", url: string, extra: Record<string, string> = {}, payload?: object) =>
        world.stack.app.inject({ method, url, headers: { ...auth(token), ...extra }, ...(payload ? { payload } : {}) });

      // A checkout of Acme's, with its valid link token: answered as a checkout that does not exist.
      const open = await checkoutWithLinkToken(world.stack, world.acme.apiKey);
      const checkoutCalls: [string, (id: string, linkToken: string) => Promise<LightMyRequestResponse>][] = [
        ["create_link_token", (id, linkToken) => inject("POST", `/api/consumers/checkout/${id}/create_link_token/`, { "link-token": linkToken })],
        ["mandate_text", (id, linkToken) => inject("GET", `/api/consumers/checkout/${id}/mandate_text`, { "link-token": linkToken })],
        [
          "exchange_public_token",
          (id, linkToken) => inject("POST", `/api/consumers/checkout/${id}/exchange_public_token/`, { "link-token": linkToken }, { public_token: "public-sandbox-x", bankdata_account_id: "acc" }),
        ],
        ["sandbox picker", (id, linkToken) => inject("POST", `/api/sandbox/consumers/checkout/${id}/public_token`, { "link-token": linkToken }, { link_token: "link-sandbox-x" })],
      ];
      for (const [what, call] of checkoutCalls) {
        const foreign = await call(open.id, open.linkToken);
        expect(foreign.statusCode, what).toBe(404);
        expect(foreign.json().error, what).toMatchObject({ code: "checkout_not_found", param: "checkout_id" });
        expect(foreign.json().error.message.replace(open.id, "ID"), what).toBe(`no checkout ID`);
      }
      // Nothing was claimed: Acme's consumer still links it.
      const linked = await world.stack.app.inject({
        method: "POST",
        url: `/api/consumers/checkout/${open.id}/create_link_token/`,
        headers: { ...auth(atAcme.token), "link-token": open.linkToken },
      });
      expect(linked.statusCode, linked.body).toBe(200);

      const unknownUuid = randomUUID();
      const subscriptionCalls: [string, (uuid: string) => Promise<LightMyRequestResponse>][] = [
        ["cancel", (uuid) => inject("POST", "/api/merchants/manage_subscription/subscription_cancel", {}, { subscription_transaction_uuid: uuid })],
        ["relink token", (uuid) => inject("POST", "/api/consumers/subscriptions/bank_account/link_token", {}, { subscription_transaction_uuid: uuid })],
      ];
      for (const [what, call] of subscriptionCalls) {
        const foreign = await call(sub.uuid);
        expect(foreign.statusCode, what).toBe(404);
        expect(errorOf(foreign, sub.uuid), what).toEqual(errorOf(await call(unknownUuid), unknownUuid));
      }
      const listed = await inject("GET", "/api/consumers/subscriptions");
      expect(listed.json().data).toEqual([]);
      // The subscription is untouched and Acme's session still sees it.
      const own = await world.stack.app.inject({ url: "/api/consumers/subscriptions", headers: auth(atAcme.token) });
      expect(own.json().data.map((s: { subscription_transaction_uuid: string; status: string }) => [s.subscription_transaction_uuid, s.status])).toEqual([[sub.uuid, "active"]]);
    });

    it("keeps the seed's flow whole for one merchant: its token links, pays, lists and refunds", async () => {
      const consumer = await consumerToken(world.stack, world.acme.apiKey);
      const paid = await payment(world.stack, world.acme.apiKey, "completed", {}, { consumer });
      expect(await transactionsOf(consumer.token)).toEqual([paid.uuid]);
      const refund = await requested(world.stack, paid);
      expect((await get("/api/merchants/refund_request/consumer_refund_list", consumer.token)).json().map((r: { id: string }) => r.id)).toEqual([refund.id]);
      const decided = await refundClient(world.stack).decide({ "api-key": world.acme.apiKey }, refund.id, "approved");
      expect(decided.json().refund.status).toBe("approved");
    });

    // The texted code itself opens nothing in the sandbox (identity's scoped-codes contract test).
    it("gives an anonymous visitor no code: the read-back needs a merchant's api-key", async () => {
      const phone = randomPhone();
      expect((await world.stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone } })).statusCode).toBe(200);
      const anonymous = await world.stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe("api_key_missing");
    });
  });
});
