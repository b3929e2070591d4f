import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { memoryLogger } from "../../../test/support/memory-logger.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";
import { randomPhone } from "./support/bank-linking.ts";
import { DASHBOARD_PASSWORD, DashboardClient } from "./support/dashboard-session.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { PortalClient } from "./support/portal-client.ts";

/**
 * Runs the whole payment flow with every service logging at debug level into memory (so the
 * per-RPC lines, below the default info, are searched too), then looks for the secrets that
 * crossed the gateway: none may appear in any log line.
 */
describe("secrets stay out of the logs", () => {
  const memory = memoryLogger("debug");
  const variant = embeddedVariant(memory.logger);
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(variant, { logger: memory.logger });
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  it("logs no api-key, auth token, link token, code or provider token", async () => {
    const { apiKey } = await stack.merchant();
    const { id, consumer } = await linkedCheckout(stack, apiKey);
    const link = (await stack.app.inject({ url: `/api/merchants/checkout/${id}/generate_link_token`, headers: { "api-key": apiKey } })).json();
    const pt = await stack.app.inject({
      method: "POST",
      url: "/api/merchants/payment_preprocess/get_processor_token",
      payload: { checkout_id: id },
      headers: { "api-key": apiKey, authorization: `Token ${consumer.token}` },
    });
    expect(pt.statusCode).toBe(200);
    // Failed attempts log too: a wrong key and a wrong token.
    await stack.app.inject({ url: "/api/merchants/checkout", headers: { "api-key": `${apiKey.slice(0, -1)}x` } });
    await stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token ${consumer.token}x` } });

    const logs = memory.text();
    expect(logs.length).toBeGreaterThan(1000);
    expect(logs).toContain("request completed");
    expect(logs).toContain("rpc handled");
    for (const secret of [apiKey, apiKey.slice(8), consumer.token, link.link_token]) {
      expect(logs.includes(secret), `a secret (${secret.slice(0, 6)}…) reached the logs`).toBe(false);
    }
    expect(logs).not.toMatch(/access-sandbox-|processor-sandbox-|public-sandbox-/);
  });

  it("logs neither the consumer portal session's token nor the CSRF secret and token", async () => {
    const { apiKey } = await stack.merchant("Corner Bakery");
    const client = new PortalClient(stack);
    const phone = randomPhone();
    await client.get("/account");
    await client.post("/account/sign-in/code", { phone });
    const code = (await stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": apiKey } })).json().code as string;
    expect((await client.post("/account/sign-in", { phone, code })).statusCode).toBe(303);
    const token = client.cookies.get("payrail_account")!;
    const csrfSecret = client.cookies.get("payrail_account_csrf")!;
    expect((await client.get("/account/payments")).statusCode).toBe(200);
    await client.post("/account/sign-out");
    // A stale session and a forged form are logged too.
    await client.send({ method: "GET", url: "/account/payments", headers: { cookie: `payrail_account=${token}` } });
    await client.send({ method: "POST", url: "/account/sign-out", headers: { cookie: `payrail_account=${token}x` }, form: { _csrf: client.csrf } });

    const logs = memory.text();
    expect(logs).toContain("request completed");
    // (The code itself is in the sandbox SMS adapter's debug line: that is the sandbox's text message.)
    for (const secret of [token, csrfSecret, client.csrf]) {
      expect(logs.includes(secret), `a secret (${secret.slice(0, 4)}…) reached the logs`).toBe(false);
    }
  });

  it("logs no dashboard password, invitation token, session token or CSRF token, failed sign-ins included", async () => {
    const { id } = await stack.merchant();
    const invited = await stack.app.inject({ method: "POST", url: `/api/admin/merchants/${id}/users`, headers: { "x-admin-token": ADMIN_TOKEN }, payload: { email: "ana@shop.example", role: "owner" } });
    const token = decodeURIComponent(invited.json<{ url: string }>().url.split("#token=")[1] ?? "");
    const client = new DashboardClient(stack.app);
    await client.get("/dashboard/accept");
    expect((await client.post("/dashboard/accept", { token, password: DASHBOARD_PASSWORD, confirm: DASHBOARD_PASSWORD })).statusCode).toBe(303);
    await client.post("/dashboard/sign-in", { email: "ana@shop.example", password: "a wrong password" });
    expect((await client.signIn("ana@shop.example")).statusCode).toBe(303);
    const session = client.cookies.get("payrail_dashboard") ?? "";
    expect(session.length).toBeGreaterThan(20);
    await client.get("/dashboard");
    await client.post("/dashboard/sign-out");

    const logs = memory.text();
    for (const secret of [DASHBOARD_PASSWORD, "a wrong password", token, session, client.csrf]) {
      expect(logs.includes(secret), `a secret (${secret.slice(0, 6)}…) reached the logs`).toBe(false);
    }
  });
});
