import { buildApp } from "@payrail/gateway";
import { silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { linkedCheckout } from "./support/payment-flow.ts";
import { payment, refundClient, requested } from "./support/refund-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";
import { DashboardClient, dashboardUser } from "./support/dashboard-session.ts";

const variants = await infraVariants();

/** The state-changing forms of the dashboard, aimed at ids the caller names. */
function actions(ids: { refund: string; endpoint: string; event: string; keyPrefix: string; user: string }): [string, Record<string, string>][] {
  return [
    [`/dashboard/refunds/${ids.refund}/approve`, {}],
    [`/dashboard/refunds/${ids.refund}/reject`, {}],
    [`/dashboard/refunds/${ids.refund}/payout`, {}],
    [`/dashboard/refunds/${ids.refund}/settle`, {}],
    [`/dashboard/webhooks/${ids.endpoint}/disable`, {}],
    [`/dashboard/webhooks/${ids.endpoint}/enable`, {}],
    [`/dashboard/webhooks/${ids.endpoint}/rotate`, {}],
    [`/dashboard/events/${ids.event}/redeliver`, {}],
    [`/dashboard/api-keys/${ids.keyPrefix}/revoke`, {}],
    [`/dashboard/team/${ids.user}/role`, { role: "admin" }],
    [`/dashboard/team/${ids.user}/remove`, {}],
  ];
}

describe.each(variants)("the merchant dashboard over $name", (variant) => {
  const world = withWebhooksStack(variant, {}, ["ledger"]);

  /** A merchant with a settled payment, a pending refund, an endpoint, an event, and a user of each role. */
  async function merchantWithData(name: string) {
    const { stack, receiver } = world;
    const m = await stack.merchant(name);
    const paid = await payment(stack, m.apiKey);
    const refund = await requested(stack, paid);
    const endpoint = (
      await stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: receiver.url, enabled_events: ["*"] }, headers: { "api-key": m.apiKey } })
    ).json<{ id: string }>();
    const events = (await stack.app.inject({ url: "/api/merchants/events?limit=1", headers: { "api-key": m.apiKey } })).json<{ data: { id: string }[] }>();
    const keyPrefix = m.apiKey.slice(0, 16);
    const ownId = (await stack.app.inject({ url: `/api/merchants/checkout/${paid.checkoutId}`, headers: { "api-key": m.apiKey } })).json<{ merchant_checkout_id: string }>().merchant_checkout_id;
    const owner = await dashboardUser(stack.app, m.id, "owner");
    const viewer = await dashboardUser(stack.app, m.id, "viewer");
    return { ...m, checkoutId: paid.checkoutId, paymentUuid: paid.uuid, ownId, refund: refund.id, endpoint: endpoint.id, event: events.data[0]?.id ?? "", keyPrefix, owner, viewer };
  }

  describe.skipIf(!!variant.skipReason)("pages and forms", () => {
    it("refuses a form without its CSRF token, or with a wrong one, with 403 and changes nothing", async () => {
      const acme = await merchantWithData("Acme");
      const anonymous = new DashboardClient(world.stack.app);
      await anonymous.get("/dashboard/sign-in");
      expect((await anonymous.post("/dashboard/sign-in", { email: acme.owner.email, password: "correct horse battery" }, null)).statusCode).toBe(403);
      expect((await anonymous.post("/dashboard/sign-in", { email: acme.owner.email, password: "correct horse battery" }, "forged-token")).statusCode).toBe(403);
      // No CSRF cookie at all (another site's form): 403 too.
      const fresh = new DashboardClient(world.stack.app);
      expect((await fresh.post("/dashboard/sign-in", { email: acme.owner.email, password: "correct horse battery" }, "x")).statusCode).toBe(403);

      const owner = acme.owner.client;
      await owner.get("/dashboard/refunds");
      const forged = await owner.post(`/dashboard/refunds/${acme.refund}/approve`, {}, null);
      expect(forged.statusCode).toBe(403);
      expect(forged.headers["content-type"]).toContain("text/html");
      // Another browser's valid token does not fit this browser's secret.
      const wrong = await owner.post(`/dashboard/refunds/${acme.refund}/approve`, {}, acme.viewer.client.csrf);
      expect(wrong.statusCode).toBe(403);
      const refund = await world.stack.app.inject({ url: `/api/merchants/refunds/${acme.refund}`, headers: { "api-key": acme.apiKey } });
      expect(refund.json().status).toBe("pending");
    });

    it("gives every form of a page reached without the CSRF cookie (a link from another site) a token that works", async () => {
      const acme = await merchantWithData("Acme");
      const owner = acme.owner.client;
      owner.cookies.delete("payrail_csrf");
      const page = await owner.get("/dashboard/refunds");
      expect(page.body.match(/name="_csrf"/g)?.length ?? 0).toBeGreaterThan(1);
      // The approve button's own token, not the header's sign-out form (the last one drawn).
      const approve = new RegExp(`action="/dashboard/refunds/${acme.refund}/approve"><input type="hidden" name="_csrf" value="([^"]+)"`).exec(page.body)?.[1];
      expect(approve).toBeDefined();
      expect((await owner.post(`/dashboard/refunds/${acme.refund}/approve`, {}, approve ?? null)).headers.location).toBe("/dashboard/refunds?done=approved");
    });

    it("never shows or changes merchant B's data to merchant A's session, on any page or action", async () => {
      const a = await merchantWithData("Acme");
      const b = await merchantWithData("Globex");
      const client = a.owner.client;
      for (const page of ["/dashboard", "/dashboard/checkouts", "/dashboard/subscriptions", "/dashboard/refunds", "/dashboard/webhooks", "/dashboard/events", "/dashboard/api-keys", "/dashboard/team", "/dashboard/audit-log"]) {
        const reply = await client.get(page);
        expect(reply.statusCode, page).toBe(200);
        for (const secret of [b.id, b.checkoutId, b.refund, b.endpoint, b.event, b.keyPrefix, b.owner.email, b.viewer.email]) expect(reply.body, `${page} shows ${secret}`).not.toContain(secret);
      }
      expect((await client.get("/dashboard/checkouts")).body).toContain(a.checkoutId);
      expect((await client.get("/dashboard/refunds")).body).toContain(a.refund);
      for (const page of [`/dashboard/checkouts/${b.checkoutId}`, `/dashboard/webhooks/${b.endpoint}`, `/dashboard/checkouts?q=${b.checkoutId}`]) {
        const reply = await client.get(page);
        const final = reply.statusCode === 303 ? await client.get(reply.headers.location as string) : reply;
        expect(final.statusCode, page).toBe(404);
        expect(final.body).not.toContain(b.owner.email);
      }
      // Searching by B's own merchant_checkout_id finds nothing of B's; A's own finds A's.
      expect((await client.get(`/dashboard/checkouts?q=${b.ownId}`)).body).not.toContain(b.checkoutId);
      expect((await client.get(`/dashboard/checkouts?q=${a.ownId}`)).body).toContain(a.checkoutId);

      await client.get("/dashboard");
      for (const [url, form] of actions({ refund: b.refund, endpoint: b.endpoint, event: b.event, keyPrefix: b.keyPrefix, user: b.viewer.id })) {
        const reply = await client.post(url, form);
        expect(reply.statusCode, url).toBe(404);
      }
      const bRefund = await world.stack.app.inject({ url: `/api/merchants/refunds/${b.refund}`, headers: { "api-key": b.apiKey } });
      expect(bRefund.json().status).toBe("pending");
      const bEndpoint = await world.stack.app.inject({ url: `/api/merchants/webhook_endpoints/${b.endpoint}`, headers: { "api-key": b.apiKey } });
      expect(bEndpoint.json().status).toBe("enabled");
      expect((await world.stack.app.inject({ url: "/api/merchants/checkout?limit=1", headers: { "api-key": b.apiKey } })).statusCode).toBe(200);
      expect((await b.viewer.client.get("/dashboard")).statusCode).toBe(200);
    });

    it("shows a viewer no button, and refuses the viewer's forged forms with 403 from the services", async () => {
      const acme = await merchantWithData("Acme");
      const viewer = acme.viewer.client;
      for (const page of ["/dashboard", "/dashboard/checkouts", `/dashboard/checkouts/${acme.checkoutId}`, "/dashboard/refunds", "/dashboard/webhooks", `/dashboard/webhooks/${acme.endpoint}`, "/dashboard/events", "/dashboard/api-keys", "/dashboard/team", "/dashboard/audit-log"]) {
        const reply = await viewer.get(page);
        expect(reply.statusCode, page).toBe(200);
        // The only form that posts is the sign-out.
        expect([...reply.body.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"/g)].map((m) => m[1]), page).toEqual(["/dashboard/sign-out"]);
      }
      for (const [url, form] of [...actions({ refund: acme.refund, endpoint: acme.endpoint, event: acme.event, keyPrefix: acme.keyPrefix, user: acme.owner.id }), ["/dashboard/api-keys", {}], ["/dashboard/webhooks", { url: "https://shop.example/hooks", events: "*" }], ["/dashboard/team", { email: "new@shop.example", role: "admin" }]] as const) {
        const reply = await viewer.post(url, form);
        expect(reply.statusCode, url).toBe(403);
      }
      const refund = await world.stack.app.inject({ url: `/api/merchants/refunds/${acme.refund}`, headers: { "api-key": acme.apiKey } });
      expect(refund.json().status).toBe("pending");
      const keys = await world.stack.app.inject({ url: `/api/admin/merchants/${acme.id}/users`, method: "POST", headers: { "x-admin-token": "test-admin-token" }, payload: { email: acme.owner.email, role: "owner" } });
      expect(keys.json().error.code).toBe("merchant_user_exists");
    });

    it("lets an owner approve and pay out a refund, and create and revoke an API key shown once", async () => {
      const acme = await merchantWithData("Acme");
      const owner = acme.owner.client;
      // The overview counts the one settled payment of 107.50 in both windows.
      const overview = (await owner.get("/dashboard")).body;
      expect(overview).toContain("107.50 USD</div><div class=\"stat-label\">settled in the last 7 days");
      expect(overview).toContain("107.50 USD</div><div class=\"stat-label\">settled in the last 30 days");
      expect(overview).toContain("1 settled of 1 debits");
      await owner.get("/dashboard/refunds");
      expect((await owner.post(`/dashboard/refunds/${acme.refund}/approve`)).headers.location).toBe("/dashboard/refunds?done=approved");
      expect((await owner.post(`/dashboard/refunds/${acme.refund}/payout`)).statusCode).toBe(303);
      const refund = await world.stack.app.inject({ url: `/api/merchants/refunds/${acme.refund}`, headers: { "api-key": acme.apiKey } });
      expect(refund.json().status).toBe("processing");
      // Paid back, and then the bank returns the payment too: the refunds page says the consumer got it twice.
      const refunds = refundClient(world.stack);
      expect((await refunds.simulate(acme.apiKey, refund.json().refund_transaction_id, "completed")).statusCode).toBe(200);
      expect((await owner.get("/dashboard/refunds")).body).not.toContain("paid twice");
      expect((await world.stack.app.inject({ method: "POST", url: `/api/sandbox/transfers/${acme.paymentUuid}/simulate`, payload: { status: "failed", failure_code: "R10" }, headers: { "api-key": acme.apiKey } })).statusCode).toBe(200);
      await eventually(async () => expect((await owner.get("/dashboard/refunds")).body).toContain("paid twice: payment returned too"));

      const created = await owner.post("/dashboard/api-keys");
      const key = /<code id="new-key">(sk_test_[A-Za-z0-9]+)<\/code>/.exec(created.body)?.[1] ?? "";
      expect(key).toMatch(/^sk_test_/);
      expect((await world.stack.app.inject({ url: "/api/merchants/checkout?limit=1", headers: { "api-key": key } })).statusCode).toBe(200);
      expect((await owner.get("/dashboard/api-keys")).body).not.toContain(key);
      expect((await owner.post(`/dashboard/api-keys/${key.slice(0, 16)}/revoke`)).statusCode).toBe(303);
      expect((await owner.get("/dashboard/api-keys")).body).toContain("revoked");
    });

    it("filters checkouts by status and to subscriptions, and lets only the merchant's owner cancel its subscription", async () => {
      const { stack } = world;
      const a = await merchantWithData("Acme");
      const b = await merchantWithData("Globex");
      const { id } = await linkedCheckout(stack, a.apiKey, { is_subscription: true, plan_type: "monthly", merchant_checkout_id: "sub-1" });
      const started = await stack.app.inject({ method: "POST", url: "/api/merchants/payment_preprocess/get_processor_token", payload: { checkout_id: id }, headers: { "api-key": a.apiKey } });
      expect((await refundClient(stack).simulate(a.apiKey, started.json().transaction_uuid, "completed")).statusCode).toBe(200);

      const owner = a.owner.client;
      const paid = await owner.get("/dashboard/checkouts?status=paid");
      expect(paid.body).toContain(a.checkoutId);
      expect((await owner.get("/dashboard/checkouts?status=open")).body).not.toContain(a.checkoutId);
      // The checkout learns that its subscription started from payments' events: the page shows it once they arrived.
      await eventually(async () => {
        const subs = await owner.get("/dashboard/subscriptions");
        expect(subs.body).toContain(id);
        expect(subs.body).not.toContain(a.checkoutId);
        expect(subs.body).toContain(`/dashboard/subscriptions/${id}/cancel`);
      });

      // Neither another merchant (404) nor a viewer (403) can cancel it; the owner can, once and again.
      await b.owner.client.get("/dashboard");
      expect((await b.owner.client.post(`/dashboard/subscriptions/${id}/cancel`)).statusCode).toBe(404);
      expect((await stack.app.inject({ method: "POST", url: `/api/merchants/subscriptions/${id}/cancel`, headers: { "api-key": b.apiKey } })).statusCode).toBe(404);
      await a.viewer.client.get("/dashboard");
      expect((await a.viewer.client.post(`/dashboard/subscriptions/${id}/cancel`)).statusCode).toBe(403);
      expect((await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": a.apiKey } })).json().subscription_status).toBe("active");
      const cancel = await owner.post(`/dashboard/subscriptions/${id}/cancel`);
      expect(cancel.headers.location).toBe(`/dashboard/subscriptions?cancelled=${id}&done=cancelled`);
      // The page it leads to shows the subscription cancelled at once, though the checkout may not know yet.
      const after = await owner.get(String(cancel.headers.location));
      const row = after.body.slice(after.body.indexOf(`href="/dashboard/checkouts/${id}"`)).split("</tr>")[0]!;
      expect(row).toContain(">cancelled<");
      expect(row).not.toContain("/cancel");
      const again = await stack.app.inject({ method: "POST", url: `/api/merchants/subscriptions/${id}/cancel`, headers: { "api-key": a.apiKey } });
      expect(again.json()).toEqual({ checkout_id: id, subscription_status: "cancelled" });
      const oneOff = await stack.app.inject({ method: "POST", url: `/api/merchants/subscriptions/${a.checkoutId}/cancel`, headers: { "api-key": a.apiKey } });
      expect(oneOff.json().error.code).toBe("not_a_subscription");
      // The checkout learns of the cancel from payments' event.
      const checkout = await eventually(async () => {
        const read = await stack.app.inject({ url: `/api/merchants/checkout/${id}`, headers: { "api-key": a.apiKey } });
        expect(read.json().subscription_status).toBe("cancelled");
        return read;
      });
      const mandate = await stack.app.inject({ url: `/api/merchants/mandates/${checkout.json().mandate_id}`, headers: { "api-key": a.apiKey } });
      expect(mandate.json().status).toBe("revoked");
    });

    it("shows a checkout's events on its page, from the events API filtered by what they are about", async () => {
      const a = await merchantWithData("Acme");
      const b = await merchantWithData("Globex");
      const about = (m: { apiKey: string }, id: string) => world.stack.app.inject({ url: `/api/merchants/events?about=${id}`, headers: { "api-key": m.apiKey } });
      const listed = await eventually(async () => {
        const listed = (await about(a, a.checkoutId)).json<{ data: { type: string; data: { object: { id?: string; checkout_id?: unknown; checkout?: unknown } } }[] }>().data;
        expect(listed.map((e) => e.type)).toEqual(expect.arrayContaining(["checkout.created", "transaction.completed"]));
        return listed;
      });
      // The checkout's own events, and those of objects that name it (its mandate, its transaction record by `checkout`).
      expect(listed.every((e) => e.data.object.id === a.checkoutId || e.data.object.checkout_id === a.checkoutId || e.data.object.checkout === a.checkoutId)).toBe(true);
      // Another merchant asking about A's checkout sees nothing.
      expect((await about(b, a.checkoutId)).json().data).toEqual([]);
      const page = await a.owner.client.get(`/dashboard/checkouts/${a.checkoutId}`);
      // The whole 107.50 is held by the pending refund.
      expect(page.body).toContain("<dt>Still refundable</dt><dd>0.00 USD</dd>");
      expect(page.body).toContain("checkout.created");
      expect(page.body).toContain("transaction.completed");
      expect(page.body).toContain("refund.requested");
      // The endpoint came after these events: sent again from the page, the delivery shows beside its event.
      const created = (listed as unknown as { id: string; type: string }[]).find((e) => e.type === "checkout.created")!;
      expect((await a.owner.client.post(`/dashboard/events/${created.id}/redeliver`)).statusCode).toBe(303);
      // The endpoint also receives the events relayed after it was created (their attempts show on
      // their own rows), so wait for this event's row: the redelivery is sent after the 303.
      const createdRow = await eventually(async () => {
        const body = (await a.owner.client.get(`/dashboard/checkouts/${a.checkoutId}`)).body;
        const row = body.split("<tr>").find((r) => r.includes(`<td data-label="Id" class="mono">${created.id}</td>`)) ?? "";
        expect(row).toContain(`href="/dashboard/webhooks/${a.endpoint}"`);
        return row;
      });
      expect(createdRow).toContain("succeeded");
      const deliveries = (await world.stack.app.inject({ url: `/api/merchants/events/${created.id}/deliveries`, headers: { "api-key": a.apiKey } })).json();
      expect(deliveries.data[0]).toMatchObject({ event_id: created.id, endpoint_id: a.endpoint, status: "succeeded" });
      expect((await world.stack.app.inject({ url: `/api/merchants/events/${created.id}/deliveries`, headers: { "api-key": b.apiKey } })).statusCode).toBe(404);
    });

    it("settles a processing refund and a pending payment from the sandbox dashboard: owners only, CSRF checked, the merchant's own only, never on a live dashboard", async () => {
      const { stack } = world;
      const a = await merchantWithData("Acme");
      const b = await merchantWithData("Globex");
      const pending = await payment(stack, a.apiKey, "pending");
      const api = (path: string) => stack.app.inject({ url: path, headers: { "api-key": a.apiKey } });
      const refundStatus = async () => (await api(`/api/merchants/refunds/${a.refund}`)).json<{ status: string }>().status;
      const transferStatus = async () => (await api(`/api/merchants/checkout/${pending.checkoutId}`)).json<{ transfer: { status: string } }>().transfer.status;
      const owner = a.owner.client;
      await owner.get("/dashboard/refunds");
      // Before its payout a refund has nothing to settle.
      expect((await owner.post(`/dashboard/refunds/${a.refund}/settle`)).statusCode).toBe(409);
      await owner.post(`/dashboard/refunds/${a.refund}/approve`);
      await owner.post(`/dashboard/refunds/${a.refund}/payout`);
      expect(await refundStatus()).toBe("processing");
      const refundSettle = `/dashboard/refunds/${a.refund}/settle`;
      const paymentSettle = `/dashboard/transactions/${pending.uuid}/settle`;

      // Shown to the owner on the refunds page, the checkouts' pages; never to a viewer.
      expect((await owner.get("/dashboard/refunds")).body).toContain(`action="${refundSettle}"`);
      expect((await owner.get(`/dashboard/checkouts/${a.checkoutId}`)).body).toContain(`action="${refundSettle}"`);
      expect((await owner.get(`/dashboard/checkouts/${pending.checkoutId}`)).body).toContain(`action="${paymentSettle}"`);
      const viewer = a.viewer.client;
      for (const page of ["/dashboard/refunds", `/dashboard/checkouts/${a.checkoutId}`, `/dashboard/checkouts/${pending.checkoutId}`]) {
        expect((await viewer.get(page)).body, page).not.toContain("/settle");
      }
      // A viewer's forged form, a form without the CSRF token, another merchant's owner: refused, nothing moves.
      for (const url of [refundSettle, paymentSettle]) {
        expect((await viewer.post(url)).statusCode, url).toBe(403);
        expect((await owner.post(url, {}, null)).statusCode, url).toBe(403);
        await b.owner.client.get("/dashboard");
        expect((await b.owner.client.post(url)).statusCode, url).toBe(404);
      }
      expect(await refundStatus()).toBe("processing");
      expect(await transferStatus()).toBe("pending");

      // A live dashboard (PROVIDERS=live) in front of the same services: no button, no route.
      const live = await buildApp({ transport: stack.transport, logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 1000, services: [], sandbox: false });
      try {
        const liveOwner = new DashboardClient(live);
        for (const [name, value] of owner.cookies) liveOwner.cookies.set(name, value);
        for (const page of ["/dashboard/refunds", `/dashboard/checkouts/${a.checkoutId}`, `/dashboard/checkouts/${pending.checkoutId}`]) {
          const reply = await liveOwner.get(page);
          expect(reply.statusCode, page).toBe(200);
          expect(reply.body, page).not.toContain("/settle");
          expect(reply.body, page).not.toContain("Sandbox");
        }
        for (const url of [refundSettle, paymentSettle]) expect((await liveOwner.post(url)).statusCode, url).toBe(404);
      } finally {
        await live.close();
      }
      expect(await refundStatus()).toBe("processing");

      // The owner's: the refund's payout completes at once; the payment's transfer settles, and the checkout learns of it.
      await owner.get("/dashboard/refunds");
      expect((await owner.post(refundSettle)).headers.location).toBe("/dashboard/refunds?done=refund-settled");
      expect(await refundStatus()).toBe("completed");
      expect((await owner.get("/dashboard/refunds")).body).not.toContain(`action="${refundSettle}"`);
      expect((await owner.post(refundSettle)).statusCode).toBe(409);
      expect((await owner.post(paymentSettle)).headers.location).toBe(`/dashboard/checkouts/${pending.checkoutId}?done=payment-settled`);
      await eventually(async () => expect(await transferStatus()).toBe("completed"));
      expect((await owner.get(`/dashboard/checkouts/${pending.checkoutId}`)).body).not.toContain(`action="${paymentSettle}"`);
    });

    it("delays an account's sign-in after 5 failures in 15 minutes, even with the right password and from another address", async () => {
      const acme = await merchantWithData("Acme");
      const attacker = new DashboardClient(world.stack.app, "203.0.113.50");
      await attacker.get("/dashboard/sign-in");
      for (let i = 0; i < 4; i++) expect((await attacker.post("/dashboard/sign-in", { email: acme.viewer.email, password: "wrong password" })).statusCode).toBe(401);
      const delayed = await attacker.post("/dashboard/sign-in", { email: acme.viewer.email, password: "wrong password" });
      expect(delayed.statusCode).toBe(429);
      expect(delayed.headers["retry-after"]).toBe("60");
      expect(delayed.body).toContain("Try again in 1 minute.");
      expect((await attacker.post("/dashboard/sign-in", { email: acme.viewer.email, password: "correct horse battery" })).statusCode).toBe(429);
      // The account's delay, not the address's: a growing delay, never a lock-out (docs/decisions/0004-sign-in-limits.md).
      const elsewhere = new DashboardClient(world.stack.app, "198.51.100.20");
      expect((await elsewhere.signIn(acme.viewer.email)).statusCode).toBe(429);
    });

    it("ends the session at once at sign-out, and when the user's role changes", async () => {
      const acme = await merchantWithData("Acme");
      const viewer = acme.viewer.client;
      const stolen = new Map(viewer.cookies);
      await viewer.get("/dashboard");
      expect((await viewer.post("/dashboard/sign-out")).headers.location).toBe("/dashboard/sign-in?done=signed-out");
      const replayed = await world.stack.app.inject({ url: "/dashboard", cookies: Object.fromEntries(stolen) });
      expect(replayed.statusCode).toBe(303);
      expect(replayed.headers.location).toBe("/dashboard/sign-in");

      const admin = await dashboardUser(world.stack.app, acme.id, "admin");
      const owner = acme.owner.client;
      await owner.get("/dashboard/team");
      expect((await owner.post(`/dashboard/team/${admin.id}/role`, { role: "viewer" })).statusCode).toBe(303);
      const after = await admin.client.get("/dashboard");
      expect(after.headers.location).toBe("/dashboard/sign-in");
    });

    it("sets the session cookie httpOnly, SameSite=Lax, on the dashboard's path, and serves pages under a strict CSP", async () => {
      const acme = await merchantWithData("Acme");
      const client = new DashboardClient(world.stack.app);
      const reply = await client.signIn(acme.viewer.email);
      const cookie = (reply.cookies as { name: string; httpOnly?: boolean; sameSite?: string; path?: string }[]).find((c) => c.name === "payrail_dashboard");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/dashboard" });
      const page = await client.get("/dashboard");
      expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(page.headers["content-security-policy"]).not.toContain("unsafe-inline");
      expect(page.body).toContain("Sandbox");
      expect(page.body).not.toMatch(/<script>|style="/);
      const anonymous = await world.stack.app.inject({ url: "/dashboard/refunds" });
      expect(anonymous.headers.location).toBe("/dashboard/sign-in");
    });
  });
});
