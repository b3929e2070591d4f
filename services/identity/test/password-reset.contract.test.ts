import { acceptInvitationOp, createMerchantOp, inviteMerchantUserOp, requestPasswordResetOp, resetPasswordOp, resolveDashboardSessionOp, signInOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { embeddedVariant, infraVariants } from "../../../test/support/infra.ts";
import { memoryLogger } from "../../../test/support/memory-logger.ts";
import { start } from "../src/index.ts";
import { mailpitTestUrls, messageBody, messagesTo } from "../../../test/support/mailpit.ts";
import { anonymous, codeOf, errorOf, sessionOf, startIdentity, TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const mailpit = await mailpitTestUrls();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";
const PUBLIC_URL = "https://pay.example";
let emails = 0;

/** Password reset by an emailed one-time link, through real SMTP (Mailpit) (docs/decisions/0052-dashboard-two-factor-and-reset.md). */
describe.each(variants)("dashboard password reset over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let clock: TestClock;
  let merchantId: string;

  async function member(): Promise<string> {
    const email = `reset${++emails}-${Date.now()}@shop.example`;
    const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchantId, email, role: "viewer" }, admin);
    await client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous);
    return email;
  }

  /** The token of the newest reset mail to `email` once `count` have arrived. */
  async function mailedToken(email: string, count = 1): Promise<string> {
    const messages = await eventually(async () => {
      const found = await messagesTo(mailpit.apiUrl!, email);
      expect(found).toHaveLength(count);
      return found;
    });
    const { Text } = await messageBody(mailpit.apiUrl!, messages[0]!.ID);
    const link = /https:\/\/pay\.example\/dashboard\/reset\?token=([A-Za-z0-9_-]+)/.exec(Text);
    expect(Text).toContain("30 minutes");
    return link![1]!;
  }

  const ask = (email: string, client_address = "198.51.100.9") => client.call(requestPasswordResetOp, { email, client_address }, anonymous);

  beforeAll(async () => {
    if (variant.skipReason || mailpit.skipReason) return;
    ({ client, store, clock } = await startIdentity(variant, { smtpUrl: mailpit.smtpUrl, smtpFrom: "Payrail <dashboard@pay.example>", publicUrl: PUBLIC_URL }));
    merchantId = (await client.call(createMerchantOp, { name: "Acme" }, admin)).merchant.id;
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason || !!mailpit.skipReason)("reset", () => {
    it("mails a link whose token is stored hashed; it sets the password once, ends every session, and is refused reused", async () => {
      const email = await member();
      const session = await sessionOf(client.call(signInOp, { email, password: PASSWORD }, anonymous));
      expect(await ask(email)).toEqual({ accepted: true });
      const token = await mailedToken(email);
      const stored = JSON.stringify(await uncheckedStore(store).collection("merchant_users").findOne({ email }));
      expect(stored).not.toContain(token);
      expect(await client.call(resetPasswordOp, { token, password: NEW_PASSWORD }, anonymous)).toEqual({ reset: true });
      expect(await codeOf(client.call(resolveDashboardSessionOp, { session_token: session.session_token }, anonymous))).toBe("session_invalid");
      expect(await codeOf(client.call(resetPasswordOp, { token, password: "yet another passphrase" }, anonymous))).toBe("reset_link_invalid");
      expect(await codeOf(client.call(signInOp, { email, password: PASSWORD }, anonymous))).toBe("invalid_credentials");
      await expect(client.call(signInOp, { email, password: NEW_PASSWORD }, anonymous)).resolves.toMatchObject({ session_token: expect.any(String) });
    });

    it("refuses a link after 30 minutes, and an earlier link once a newer one is sent", async () => {
      const email = await member();
      await ask(email);
      const first = await mailedToken(email, 1);
      await ask(email);
      const second = await mailedToken(email, 2);
      expect(await codeOf(client.call(resetPasswordOp, { token: first, password: NEW_PASSWORD }, anonymous))).toBe("reset_link_invalid");
      clock.advance(30 * 60_000);
      expect(await codeOf(client.call(resetPasswordOp, { token: second, password: NEW_PASSWORD }, anonymous))).toBe("reset_link_invalid");
      await expect(client.call(signInOp, { email, password: PASSWORD }, anonymous)).resolves.toMatchObject({ session_token: expect.any(String) });
    });

    it("answers the same for an unknown email, and sends nothing", async () => {
      const unknown = `nobody${Date.now()}@shop.example`;
      expect(await ask(unknown)).toEqual({ accepted: true });
      // A known email's mail goes out after; by then an unknown one's would have too.
      const known = await member();
      await ask(known);
      await mailedToken(known);
      expect(await messagesTo(mailpit.apiUrl!, unknown)).toHaveLength(0);
    });

    it("sends 3 mails an hour per email, answering the same after; 10 requests an hour per address, then 429", async () => {
      const email = await member();
      for (let i = 0; i < 5; i++) expect(await ask(email, `203.0.113.${i + 1}`)).toEqual({ accepted: true });
      await mailedToken(email, 3);
      const outcomes: string[] = [];
      for (let i = 0; i < 11; i++) outcomes.push(await codeOf(ask(`someone${i}-${Date.now()}@shop.example`, "192.0.2.99")));
      expect(outcomes).toEqual([...Array(10).fill("resolved"), "too_many_attempts"]);
      expect((await errorOf(ask(email, "192.0.2.99"))).retryAfter).toBeGreaterThan(0);
      // The count of mails did not grow.
      expect(await messagesTo(mailpit.apiUrl!, email)).toHaveLength(3);
    });
  });
});

/** The sandbox without SMTP_URL: the link is in identity's log for the developer, and it works. */
describe("dashboard password reset in the sandbox without SMTP", () => {
  const variant = embeddedVariant();
  afterAll(() => variant.cleanup());

  it("writes the link to the log line the guide names, without the email", async () => {
    const log = memoryLogger("info");
    const clock = new TestClock();
    const store = await variant.store();
    await start({ transport: await variant.transport(), store, logger: log.logger, livemode: false, now: clock.now, publicUrl: PUBLIC_URL });
    const client = await variant.transport();
    const merchant = (await client.call(createMerchantOp, { name: "Acme" }, admin)).merchant.id;
    const email = `sandbox-reset-${Date.now()}@shop.example`;
    const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchant, email, role: "viewer" }, admin);
    await client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous);
    await client.call(requestPasswordResetOp, { email }, anonymous);
    const line = await eventually(async () => {
      const found = log.lines<{ msg: string; sandboxResetLink?: string }>().find((l) => l.msg.startsWith("sandbox password reset mail"));
      expect(found?.sandboxResetLink).toMatch(/^https:\/\/pay\.example\/dashboard\/reset\?token=/);
      return found!;
    });
    expect(log.text()).not.toContain(email);
    const token = new URL(line.sandboxResetLink!).searchParams.get("token")!;
    expect(await client.call(resetPasswordOp, { token, password: NEW_PASSWORD }, anonymous)).toEqual({ reset: true });
  });
});
