import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { withTwoMerchants } from "../../../test/support/stack.ts";
import { checkoutWithLinkToken, consumerTokensAt, randomPhone } from "./support/bank-linking.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { addOperator } from "./support/refund-flow.ts";

const variants = await infraVariants();

/**
 * Sandbox tenancy (docs/decisions/0001-sandbox-tenancy.md): a sandbox merchant reads the verification codes of its own consumers' phones only
 * (the phone that saved a bank account on one of its checkouts, or its operator's); another
 * merchant gets 404 as if nothing had been sent. Identity learns who pays whom from payments'
 * `payment_method.saved` event.
 */
describe.each(variants)("sandbox verification codes per merchant over $name", (variant) => {
  const world = withTwoMerchants(variant);

  const readCode = (apiKey: string, phone: string) =>
    world.stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": apiKey } });
  const sendCode = (phone: string) => world.stack.app.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone } });

  describe.skipIf(!!variant.skipReason)("read-back", () => {
    it("answers a merchant its own consumer's code, and another merchant 404 resource_missing", async () => {
      const { consumer } = await linkedCheckout(world.stack, world.acme.apiKey);
      // Identity follows the saved payment method asynchronously.
      const refused = await eventually(async () => {
        const reply = await readCode(world.globex.apiKey, consumer.phone);
        expect(reply.statusCode).toBe(404);
        return reply;
      });
      expect(refused.json().error).toMatchObject({ type: "not_found_error", code: "resource_missing", param: "phone" });
      // The same answer as for a phone nothing was sent to: nothing tells the phone is someone's.
      const never = await readCode(world.globex.apiKey, randomPhone());
      expect(never.statusCode).toBe(404);
      expect(refused.json().error.message.replace(consumer.phone, "PHONE")).toBe(never.json().error.message.replace(/\+\d+/, "PHONE"));
      const own = await readCode(world.acme.apiKey, consumer.phone);
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ phone: consumer.phone, code: expect.stringMatching(/^\d{6}$/) });
    });

    it("lets both merchants read the code of a consumer who pays both", async () => {
      // Signed in at both while the phone was nobody's: one token per merchant (docs/decisions/0001-sandbox-tenancy.md).
      const [atAcme, atGlobex] = await consumerTokensAt(world.stack, [world.acme.apiKey, world.globex.apiKey]);
      const { consumer } = await linkedCheckout(world.stack, world.acme.apiKey, {}, { consumer: atAcme });
      await eventually(async () => expect((await readCode(world.globex.apiKey, consumer.phone)).statusCode).toBe(404));
      // The same consumer saves a bank account on a Globex checkout too.
      const checkout = await checkoutWithLinkToken(world.stack, world.globex.apiKey);
      const headers = { authorization: `Token ${atGlobex.token}`, "link-token": checkout.linkToken };
      const inject = async (options: InjectOptions) => {
        const reply = await world.stack.app.inject(options);
        expect(reply.statusCode, reply.body).toBe(200);
        return reply.json();
      };
      const bank = await inject({ method: "POST", url: `/api/consumers/checkout/${checkout.id}/create_link_token/`, headers });
      const picked = await inject({ method: "POST", url: "/api/sandbox/public_token", payload: { link_token: bank.link_token }, headers: { "api-key": world.globex.apiKey } });
      await inject({
        method: "POST",
        url: `/api/consumers/checkout/${checkout.id}/exchange_public_token/`,
        payload: { public_token: picked.public_token, bankdata_account_id: picked.accounts[0].account_id },
        headers,
      });
      await eventually(async () => expect((await readCode(world.globex.apiKey, consumer.phone)).statusCode).toBe(200));
      expect((await readCode(world.acme.apiKey, consumer.phone)).statusCode).toBe(200);
    });

    it("lets any merchant read a phone that is nobody's yet (its first code comes before any checkout is its own)", async () => {
      const phone = randomPhone();
      expect((await sendCode(phone)).statusCode).toBe(200);
      expect((await readCode(world.globex.apiKey, phone)).statusCode).toBe(200);
      expect((await readCode(world.acme.apiKey, phone)).statusCode).toBe(200);
    });

    it("answers an operator's phone to its merchant only", async () => {
      const phone = randomPhone();
      expect((await addOperator(world.stack, world.acme.id, phone)).statusCode).toBe(200);
      expect((await sendCode(phone)).statusCode).toBe(200);
      expect((await readCode(world.acme.apiKey, phone)).statusCode).toBe(200);
      expect((await readCode(world.globex.apiKey, phone)).statusCode).toBe(404);
    });
  });
});
