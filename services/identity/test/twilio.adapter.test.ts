import { getVerificationCodeOp, resolveAuthTokenOp, sendCodeOp, verifyCodeOp } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { TwilioSmsAdapter } from "../src/adapters/twilio/twilio.adapter.ts";
import { start } from "../src/index.ts";
import { startFakeTwilio, twilioError } from "./support/fake-twilio.server.ts";
import { aMerchant, anonymous, codeOf, errorOf } from "./support/identity-harness.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "test-auth-token-0123456789";
const FROM = "+14155550000";
const TO = "+14155551234";

describe("Twilio SMS adapter against a local Messages API", () => {
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let adapter: TwilioSmsAdapter;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    adapter = new TwilioSmsAdapter({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, fromNumber: FROM, apiBaseUrl: twilio.url });
  });
  afterAll(() => twilio.close());
  beforeEach(() => {
    twilio.seen.length = 0;
    twilio.setAnswer(() => undefined);
  });

  it("posts the message through the SDK and returns Twilio's sid", async () => {
    const out = await adapter.send(TO, "Your code is 123456");
    expect(out.messageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(twilio.seen).toHaveLength(1);
    const [req] = twilio.seen;
    expect(req).toMatchObject({
      method: "POST",
      path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`,
      authorization: `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`,
      form: { To: TO, From: FROM, Body: "Your code is 123456" },
    });
    expect(req!.contentType).toContain("application/x-www-form-urlencoded");
  });

  it("sends from a messaging service when the sender is an MG sid", async () => {
    const service = `MG${"a".repeat(32)}`;
    const viaService = new TwilioSmsAdapter({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, fromNumber: service, apiBaseUrl: twilio.url });
    await viaService.send(TO, "hi");
    expect(twilio.seen[0]!.form).toEqual({ To: TO, MessagingServiceSid: service, Body: "hi" });
  });

  it("answers 400 invalid_phone_number when Twilio says the number is bad (21211, 21614)", async () => {
    for (const code of [21211, 21614]) {
      twilio.setAnswer(() => twilioError(400, code, `The 'To' number ${TO} is not a valid phone number.`));
      const err = await errorOf(adapter.send(TO, "x"));
      expect([err.code, err.status, err.param, err.providerCode]).toEqual(["invalid_phone_number", 400, "phone", String(code)]);
      // Twilio's message quotes the number; ours does not pass it on.
      expect(err.message).not.toContain(TO);
    }
  });

  it("answers 502 provider_error with Twilio's code for its rate limit, once, without retrying", async () => {
    twilio.setAnswer(() => twilioError(429, 20429, "Too Many Requests"));
    const err = await errorOf(adapter.send(TO, "x"));
    expect([err.code, err.status, err.providerCode]).toEqual(["provider_error", 502, "20429"]);
    expect(twilio.seen).toHaveLength(1);
  });

  it("answers 502 provider_error for other refusals, bodies that are not JSON, and no server", async () => {
    twilio.setAnswer(() => twilioError(400, 21608, "The number is unverified. Trial accounts cannot send messages to unverified numbers"));
    expect((await errorOf(adapter.send(TO, "x"))).providerCode).toBe("21608");
    twilio.setAnswer(() => ({ status: 503, body: "<html>Service Unavailable</html>", raw: true }));
    const html = await errorOf(adapter.send(TO, "x"));
    expect([html.code, html.providerCode]).toEqual(["provider_error", "http_503"]);

    const nowhere = await startFakeTwilio();
    await nowhere.close();
    const down = new TwilioSmsAdapter({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, fromNumber: FROM, apiBaseUrl: nowhere.url, timeoutMs: 2_000 });
    const err = await errorOf(down.send(TO, "x"));
    expect([err.code, err.providerCode]).toEqual(["provider_error", "network_error"]);
  });

  describe("identity in live mode", () => {
    const variant = embeddedVariant();
    afterAll(() => variant.cleanup());

    it("texts the code through Twilio, and cannot read codes back", async () => {
      const transport = await variant.transport();
      await start({
        transport,
        store: await variant.store(),
        logger: silentLogger(),
        livemode: true,
        twilio: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, fromNumber: FROM, apiBaseUrl: twilio.url },
      });
      const client = await variant.transport();
      await client.call(sendCodeOp, { phone: "+1 415 555 1234" }, anonymous);
      expect(twilio.seen).toHaveLength(1);
      const body = twilio.seen[0]!.form;
      expect(body.To).toBe(TO);
      const code = /\b(\d{6})\b/.exec(body.Body ?? "")?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(await codeOf(client.call(getVerificationCodeOp, { phone: TO }, aMerchant))).toBe("resource_missing");
      await expect(client.call(verifyCodeOp, { phone: TO, verification_code: code! }, anonymous)).resolves.toMatchObject({
        message: "Authentication complete",
      });
    });

    it("withdraws a code Twilio refused and lets the consumer retry at once", async () => {
      const client = await variant.transport();
      const phone = "+14155559876";
      twilio.setAnswer(() => twilioError(400, 21211, "invalid"));
      expect(await codeOf(client.call(sendCodeOp, { phone }, anonymous))).toBe("invalid_phone_number");
      twilio.setAnswer(() => undefined);
      // No 30-second wait after a refused send; the refused code itself is dead.
      await client.call(sendCodeOp, { phone }, anonymous);
      const [refused, accepted] = twilio.seen.slice(-2).map((r) => /\b(\d{6})\b/.exec(r.form.Body ?? "")![1]!);
      if (refused !== accepted) {
        expect(await codeOf(client.call(verifyCodeOp, { phone, verification_code: refused! }, anonymous))).toBe("invalid_verification_code");
      }
      await expect(client.call(verifyCodeOp, { phone, verification_code: accepted! }, anonymous)).resolves.toBeTruthy();
    });

    it("gives the texted code a token with no merchant scope, and clears the used code's hash", async () => {
      // Sandbox tokens are limited to the merchant that read their code (docs/decisions/0001-sandbox-tenancy.md); a live one is not.
      const client = await variant.transport();
      const phone = "+14155554321";
      await client.call(sendCodeOp, { phone }, anonymous);
      const texted = /\b(\d{6})\b/.exec(twilio.seen.at(-1)!.form.Body ?? "")![1]!;
      const out = await client.call(verifyCodeOp, { phone, verification_code: texted }, anonymous);
      expect(await client.call(resolveAuthTokenOp, { auth_token: out.data.auth_token }, anonymous)).toEqual({ user_id: out.data.user_id, phone, token_id: expect.any(String) });
      expect(await codeOf(client.call(verifyCodeOp, { phone, verification_code: texted }, anonymous))).toBe("invalid_verification_code");
      const used = await (await variant.store()).collection<{ _id: string; codeHash: string | null }>("verification_codes").findOne({ _id: phone });
      expect(used!.codeHash).toBeNull();
    });

    it("refuses to start without the Twilio settings, naming them", async () => {
      const other = embeddedVariant();
      const attempt = start({ transport: await other.transport(), store: await other.store(), logger: silentLogger(), livemode: true, twilio: { authToken: "x" } });
      await expect(attempt).rejects.toThrow(/TWILIO_ACCOUNT_SID, TWILIO_FROM_NUMBER/);
      const badSid = start({ transport: await other.transport(), store: await other.store(), logger: silentLogger(), livemode: true, twilio: { accountSid: "nope", authToken: "x", fromNumber: FROM } });
      await expect(badSid).rejects.toThrow(/TWILIO_ACCOUNT_SID must be AC/);
      await other.cleanup();
    });
  });
});
