import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "@payrail/contracts";
import type { InjectOptions } from "fastify";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { ADMIN_TOKEN } from "../../../test/support/stack.ts";
import { consumerToken } from "./support/bank-linking.ts";
import { DashboardClient, dashboardUser } from "./support/dashboard-session.ts";
import { addOperator, payment, refundClient, requested } from "./support/refund-flow.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

const variants = await infraVariants();

/** Where the merchant's integration calls from: the address its api-key entries must show. */
const INTEGRATION_IP = "203.0.113.7";
const ADMIN_IP = "198.51.100.4";

/** The code an authenticator app shows now for `secret`. */
const codeNow = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate();

/**
 * The audit log end to end (docs/decisions/0054-audit-log.md): each covered state change made
 * through the gateway by an api-key, a dashboard user, an operator and the admin appears once in
 * `GET /api/merchants/audit_log` with its actor and client address, only to its own merchant,
 * in cursor pages newest first, filtered by action and time.
 */
describe.each(variants)("the audit log over $name", (variant) => {
  const world = withWebhooksStack(variant, {}, ["ledger"]);

  const send = (options: InjectOptions) => world.stack.app.inject({ remoteAddress: INTEGRATION_IP, ...options });
  const ok = async (options: InjectOptions) => {
    const reply = await send(options);
    expect(reply.statusCode, `${options.url}: ${reply.body}`).toBe(200);
    return reply.json();
  };
  const log = async (apiKey: string, query = ""): Promise<{ data: AuditEntry[]; has_more: boolean }> => ok({ url: `/api/merchants/audit_log?limit=100${query}`, headers: { "api-key": apiKey } });
  /** The one entry of `action` on `objectId`, once the ledger has stored it (it follows the change by an event). */
  const entryOf = (apiKey: string, action: string, objectId: string) =>
    eventually(async () => {
      const found = (await log(apiKey, `&action=${action}`)).data.filter((e) => e.object.id === objectId);
      expect(found, `${action} ${objectId}`).toHaveLength(1);
      return found[0]!;
    });
  const keyPrefixOf = async (merchantId: string, apiKey: string) => {
    const keys = await ok({ url: `/api/admin/merchants/${merchantId}/api_keys`, headers: { "x-admin-token": ADMIN_TOKEN } });
    return (keys.data as { key_prefix: string }[]).map((k) => k.key_prefix).find((p) => apiKey.startsWith(p))!;
  };

  describe.skipIf(!!variant.skipReason)("entries", () => {
    let acme: { id: string; apiKey: string; prefix: string };
    let globex: { id: string; apiKey: string };
    const acmeIds: string[] = [];
    /** A new owner of Acme signed in to the dashboard, and what its entries must show. */
    const signedInOwner = async () => {
      const owner = await dashboardUser(world.stack.app, acme.id, "owner");
      return { owner, byOwner: { actor: { type: "user", id: owner.id }, ip_address: owner.client.remoteAddress } };
    };

    it("records an api-key's checkout, endpoint, refund decisions, refund payout simulation and subscription cancel with the key's prefix and the client address", async () => {
      const m = await world.stack.merchant("Audit Acme");
      acme = { ...m, prefix: await keyPrefixOf(m.id, m.apiKey) };
      globex = await world.stack.merchant("Audit Globex");
      const asAcme = { "api-key": acme.apiKey };
      const byKey = { actor: { type: "api_key", id: acme.prefix }, ip_address: INTEGRATION_IP };

      const checkout = await ok({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(), headers: asAcme });
      expect(await entryOf(acme.apiKey, "checkout.created", checkout.id)).toMatchObject({ ...byKey, object: { type: "checkout", id: checkout.id } });

      const endpoint = await ok({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: world.receiver.url, enabled_events: ["refund.approved"] }, headers: asAcme });
      await ok({ method: "POST", url: `/api/merchants/webhook_endpoints/${endpoint.id}`, payload: { description: "books" }, headers: asAcme });
      expect(await entryOf(acme.apiKey, "webhook_endpoint.created", endpoint.id)).toMatchObject({ ...byKey, object: { type: "webhook_endpoint", id: endpoint.id } });
      expect(await entryOf(acme.apiKey, "webhook_endpoint.updated", endpoint.id)).toMatchObject(byKey);
      const rotated = await ok({ method: "POST", url: `/api/merchants/webhook_endpoints/${endpoint.id}/rotate_secret`, headers: asAcme });
      const rotation = await entryOf(acme.apiKey, "webhook_endpoint.secret_rotated", endpoint.id);
      expect(rotation).toMatchObject(byKey);
      expect(JSON.stringify(rotation)).not.toContain(rotated.secret);
      await ok({ method: "DELETE", url: `/api/merchants/webhook_endpoints/${endpoint.id}`, headers: asAcme });
      // Gone at once, though its document waits for its entry to be published; a second delete finds nothing.
      expect((await send({ url: `/api/merchants/webhook_endpoints/${endpoint.id}`, headers: asAcme })).statusCode).toBe(404);
      expect((await send({ method: "DELETE", url: `/api/merchants/webhook_endpoints/${endpoint.id}`, headers: asAcme })).statusCode).toBe(404);
      expect(await entryOf(acme.apiKey, "webhook_endpoint.deleted", endpoint.id)).toMatchObject(byKey);

      const refunds = refundClient(world.stack);
      const approve = await requested(world.stack, await payment(world.stack, acme.apiKey));
      const reject = await requested(world.stack, await payment(world.stack, acme.apiKey));
      expect((await send({ method: "POST", url: "/api/merchants/refund_request/merchant_status_refund_request", payload: { id: approve.id, status: "Approved" }, headers: asAcme })).statusCode).toBe(200);
      expect((await send({ method: "POST", url: "/api/merchants/refund_request/merchant_status_refund_request", payload: { id: reject.id, status: "Rejected" }, headers: asAcme })).statusCode).toBe(200);
      // The same decision again changes nothing: no second entry (entryOf expects exactly one).
      expect((await refunds.decide(asAcme, approve.id, "Approved")).statusCode).toBe(200);
      expect(await entryOf(acme.apiKey, "refund.approved", approve.id)).toMatchObject({ ...byKey, object: { type: "refund", id: approve.id } });
      expect(await entryOf(acme.apiKey, "refund.rejected", reject.id)).toMatchObject(byKey);
      const initiated = await ok({ method: "POST", url: "/api/merchants/refund_request/initiate_refund_transfer", payload: { id: approve.id, status: "approved" }, headers: asAcme });
      expect((await refunds.initiate(asAcme, approve.id)).statusCode).toBe(200);
      expect(await entryOf(acme.apiKey, "refund.payout_initiated", approve.id)).toMatchObject(byKey);
      // Refunds asks payments on its own account; payments' move of the payout carries the key's entry.
      const payout = initiated.refund.refund_transaction_id as string;
      for (let i = 0; i < 2; i++) {
        expect(await ok({ method: "POST", url: `/api/sandbox/transfers/${payout}/simulate`, payload: { status: "completed" }, headers: asAcme })).toMatchObject({ id: approve.id, status: "completed" });
      }
      // The second found the payout final: it moved nothing and records nothing.
      expect(await entryOf(acme.apiKey, "refund_payout.simulated", approve.id)).toMatchObject({ ...byKey, object: { type: "refund", id: approve.id } });

      await ok({ method: "PATCH", url: "/api/merchants/profile", payload: { support_email: "help@acme.example" }, headers: asAcme });
      expect(await entryOf(acme.apiKey, "merchant_profile.updated", acme.id)).toMatchObject({ ...byKey, object: { type: "merchant", id: acme.id } });

      const subscription = await payment(world.stack, acme.apiKey, "completed", { is_subscription: true, plan_type: "monthly" });
      await ok({ method: "POST", url: `/api/merchants/subscriptions/${subscription.checkoutId}/cancel`, headers: asAcme });
      await ok({ method: "POST", url: `/api/merchants/subscriptions/${subscription.checkoutId}/cancel`, headers: asAcme });
      expect(await entryOf(acme.apiKey, "subscription.cancelled", subscription.checkoutId)).toMatchObject({ ...byKey, object: { type: "subscription", id: subscription.checkoutId } });
      acmeIds.push(acme.id, checkout.id, endpoint.id, approve.id, reject.id, subscription.checkoutId);
    });

    it("records an operator's refund decision with the operator's user id", async () => {
      const phone = `+1415555${String(Date.now()).slice(-4)}`;
      expect((await addOperator(world.stack, acme.id, phone)).statusCode).toBe(200);
      const operator = await consumerToken(world.stack, acme.apiKey, phone);
      const refund = await requested(world.stack, await payment(world.stack, acme.apiKey));
      expect((await refundClient(world.stack).decide({ authorization: `Token ${operator.token}` }, refund.id, "Approved")).statusCode).toBe(200);
      expect(await entryOf(acme.apiKey, "refund.approved", refund.id)).toMatchObject({ actor: { type: "operator", id: operator.userId } });
      acmeIds.push(refund.id);
    });

    it("records a dashboard user's key and team changes with the user's id and address, and the admin's with its own", async () => {
      const { owner, byOwner } = await signedInOwner();
      await owner.client.get("/dashboard/api-keys");
      const issued = await owner.client.post("/dashboard/api-keys");
      expect(issued.statusCode).toBe(200);
      const key = /<code id="new-key">([^<]+)<\/code>/.exec(issued.body)![1]!;
      const entry = await eventually(async () => {
        const keys = (await log(acme.apiKey, "&action=api_key.created")).data.filter((e) => e.actor.type === "user");
        expect(keys).toHaveLength(1);
        return keys[0]!;
      });
      const prefix = entry.object.id;
      // The key's public prefix names it; the key itself is never in an entry.
      expect(key.startsWith(prefix) && key.length > prefix.length).toBe(true);
      expect(JSON.stringify(entry)).not.toContain(key);
      expect(entry).toMatchObject(byOwner);
      await owner.client.get("/dashboard/api-keys");
      expect((await owner.client.post(`/dashboard/api-keys/${prefix}/revoke`)).statusCode).toBe(303);
      expect(await entryOf(acme.apiKey, "api_key.revoked", prefix)).toMatchObject(byOwner);

      const invitee = `invitee-${Date.now()}@shop.example`;
      await owner.client.get("/dashboard/team");
      expect((await owner.client.post("/dashboard/team", { email: invitee, role: "viewer" })).statusCode).toBe(200);
      const users = await ok({ url: `/api/admin/merchants/${acme.id}/users`, headers: { "x-admin-token": ADMIN_TOKEN } });
      const invited = (users.data as { id: string; email: string }[]).find((u) => u.email === invitee)!;
      expect(await entryOf(acme.apiKey, "team_member.invited", invited.id)).toMatchObject(byOwner);
      await owner.client.get("/dashboard/team");
      expect((await owner.client.post(`/dashboard/team/${invited.id}/role`, { role: "admin" })).statusCode).toBe(303);
      expect(await entryOf(acme.apiKey, "team_member.role_changed", invited.id)).toMatchObject(byOwner);
      await owner.client.get("/dashboard/team");
      expect((await owner.client.post(`/dashboard/team/${invited.id}/remove`)).statusCode).toBe(303);
      // Gone from the team at once, though its document waits for its entry to be published.
      const after = await ok({ url: `/api/admin/merchants/${acme.id}/users`, headers: { "x-admin-token": ADMIN_TOKEN } });
      expect((after.data as { id: string }[]).map((u) => u.id)).not.toContain(invited.id);
      expect(await entryOf(acme.apiKey, "team_member.removed", invited.id)).toMatchObject(byOwner);

      const byAdmin = await send({ method: "POST", url: `/api/admin/merchants/${acme.id}/generate_api_key`, headers: { "x-admin-token": ADMIN_TOKEN }, remoteAddress: ADMIN_IP });
      expect(byAdmin.statusCode).toBe(200);
      const adminPrefix = await keyPrefixOf(acme.id, byAdmin.json().api_key);
      expect(await entryOf(acme.apiKey, "api_key.created", adminPrefix)).toMatchObject({ actor: { type: "admin", id: "admin" }, ip_address: ADMIN_IP });
      acmeIds.push(prefix, invited.id, adminPrefix);
    });

    it("records a dashboard user's sandbox settle of a refund's payout with the user's id and address, once", async () => {
      const { owner, byOwner } = await signedInOwner();
      const refund = await requested(world.stack, await payment(world.stack, acme.apiKey));
      const asAcme = { "api-key": acme.apiKey };
      const refunds = refundClient(world.stack);
      expect((await refunds.decide(asAcme, refund.id, "Approved")).statusCode).toBe(200);
      const initiated = await refunds.initiate(asAcme, refund.id);
      expect(initiated.statusCode).toBe(200);
      await owner.client.get("/dashboard/refunds");
      expect((await owner.client.post(`/dashboard/refunds/${refund.id}/settle`)).statusCode).toBe(303);
      // The key's simulation of the now final payout moves nothing: no entry of the key's.
      const again = await refunds.simulate(acme.apiKey, initiated.json().refund.refund_transaction_id, "completed");
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ id: refund.id, status: "completed" });
      expect(await entryOf(acme.apiKey, "refund_payout.simulated", refund.id)).toMatchObject({ ...byOwner, object: { type: "refund", id: refund.id } });
      acmeIds.push(refund.id);
    });

    it("records the admin's merchant creation and operators added and removed, never an operator's phone; a repeat records nothing", async () => {
      const byAdmin = { actor: { type: "admin", id: "admin" } };
      expect(await entryOf(acme.apiKey, "merchant.created", acme.id)).toMatchObject({ ...byAdmin, object: { type: "merchant", id: acme.id } });
      expect(await entryOf(acme.apiKey, "api_key.created", acme.prefix)).toMatchObject(byAdmin);

      const phone = `+1415556${String(Date.now()).slice(-4)}`;
      const asAdmin = { "x-admin-token": ADMIN_TOKEN };
      const added = await ok({ method: "POST", url: `/api/admin/merchants/${acme.id}/operators`, payload: { phone }, headers: asAdmin, remoteAddress: ADMIN_IP });
      expect(added.id).toMatch(/^opr_[0-9a-f]{32}$/);
      // Already an operator: nothing changes, nothing is recorded (entryOf expects exactly one).
      await ok({ method: "POST", url: `/api/admin/merchants/${acme.id}/operators`, payload: { phone }, headers: asAdmin, remoteAddress: ADMIN_IP });
      const addition = await entryOf(acme.apiKey, "operator.added", added.id);
      expect(addition).toMatchObject({ ...byAdmin, object: { type: "operator", id: added.id }, ip_address: ADMIN_IP });
      expect(JSON.stringify(addition)).not.toContain(phone.slice(1));
      const path = `/api/admin/merchants/${acme.id}/operators/${encodeURIComponent(phone)}`;
      await ok({ method: "DELETE", url: path, headers: asAdmin, remoteAddress: ADMIN_IP });
      expect((await send({ method: "DELETE", url: path, headers: asAdmin })).statusCode).toBe(404);
      expect(await entryOf(acme.apiKey, "operator.removed", added.id)).toMatchObject({ ...byAdmin, ip_address: ADMIN_IP });
      // Added again at once (the removal's document may still wait for its entry): an operator again, a second entry.
      await ok({ method: "POST", url: `/api/admin/merchants/${acme.id}/operators`, payload: { phone }, headers: asAdmin });
      const operators = await ok({ url: `/api/admin/merchants/${acme.id}/operators`, headers: asAdmin });
      expect((operators.data as { id: string }[]).map((o) => o.id)).toContain(added.id);
      await eventually(async () => expect((await log(acme.apiKey, "&action=operator.added")).data.filter((e) => e.object.id === added.id)).toHaveLength(2));
      acmeIds.push(added.id);
    });

    it("records the admin's changes of a merchant's funding sources, and no entry for a call that sends the values it has", async () => {
      const asAdmin = { "x-admin-token": ADMIN_TOKEN };
      const patch = (payload: object) => ok({ method: "PATCH", url: `/api/admin/merchants/${acme.id}`, payload, headers: asAdmin, remoteAddress: ADMIN_IP });
      const bank = "https://api.dwolla.com/funding-sources/acme-new-bank";
      const byAdmin = { actor: { type: "admin", id: "admin" }, action: "merchant.funding_sources_updated", object: { type: "merchant", id: acme.id }, ip_address: ADMIN_IP };
      await patch({ payout_funding_source: bank });
      expect(await entryOf(acme.apiKey, "merchant.funding_sources_updated", acme.id)).toMatchObject(byAdmin);
      // Neither writes; a later change's entry comes after anything they could have written (one outbox, in order).
      await patch({ payout_funding_source: bank });
      await patch({});
      const last = new Date().toISOString();
      await patch({ payout_funding_source: null, destination_funding_source: "https://api.dwolla.com/funding-sources/acme-balance" });
      const entries = await eventually(async () => {
        const found = (await log(acme.apiKey, "&action=merchant.funding_sources_updated")).data;
        expect(found.filter((e) => e.created_at >= last)).toHaveLength(1);
        return found;
      });
      expect(entries).toEqual([expect.objectContaining(byAdmin), expect.objectContaining(byAdmin)]);
    });

    it("records no profile change for a call that sends the values the profile has", async () => {
      const asAcme = { "api-key": acme.apiKey };
      await ok({ method: "PATCH", url: "/api/merchants/profile", payload: { support_email: "help@acme.example" }, headers: asAcme });
      const last = new Date().toISOString();
      await ok({ method: "PATCH", url: "/api/merchants/profile", payload: { support_email: "billing@acme.example" }, headers: asAcme });
      const entries = await eventually(async () => {
        const found = (await log(acme.apiKey, "&action=merchant_profile.updated")).data;
        expect(found.filter((e) => e.created_at >= last)).toHaveLength(1);
        return found;
      });
      // The first test's change, and the one after the repeat.
      expect(entries).toHaveLength(2);
    });

    it("records a user's two-factor on and off and the team's rule, each once", async () => {
      const { owner, byOwner } = await signedInOwner();
      await owner.client.get("/dashboard/security");
      const started = await owner.client.post("/dashboard/security/two-factor");
      const secret = /<code id="totp-secret">([A-Z2-7]+)<\/code>/.exec(started.body)![1]!;
      const otpauth = /name="otpauth_uri" value="([^"]+)"/.exec(started.body)![1]!;
      const confirmed = await owner.client.post("/dashboard/security/two-factor/confirm", { code: codeNow(secret), secret, otpauth_uri: otpauth });
      expect(confirmed.statusCode).toBe(200);
      const recovery = [...confirmed.body.matchAll(/<li><code>([a-z0-9-]{19})<\/code><\/li>/g)].map((m) => m[1]!);
      const enabled = await entryOf(acme.apiKey, "team_member.two_factor_enabled", owner.id);
      expect(enabled).toMatchObject({ ...byOwner, object: { type: "team_member", id: owner.id } });
      expect(JSON.stringify(enabled)).not.toContain(secret);

      for (const required of ["on", "on"]) {
        await owner.client.get("/dashboard/security");
        expect((await owner.client.post("/dashboard/security/team", { required })).statusCode).toBe(303);
      }
      expect(await entryOf(acme.apiKey, "team_two_factor.required", acme.id)).toMatchObject({ ...byOwner, object: { type: "merchant", id: acme.id } });
      for (let i = 0; i < 2; i++) {
        await owner.client.get("/dashboard/security");
        expect((await owner.client.post("/dashboard/security/team", { required: "off" })).statusCode).toBe(303);
      }
      expect(await entryOf(acme.apiKey, "team_two_factor.lifted", acme.id)).toMatchObject(byOwner);

      for (const code of recovery.slice(0, 2)) {
        await owner.client.get("/dashboard/security");
        expect((await owner.client.post("/dashboard/security/two-factor/disable", { code })).statusCode).toBe(303);
      }
      // The second call found two-factor off already: one entry.
      expect(await entryOf(acme.apiKey, "team_member.two_factor_disabled", owner.id)).toMatchObject(byOwner);
    });

    it("records an api-key's amount change, annual review, link token, test event, redelivery and simulation, each once", async () => {
      const asAcme = { "api-key": acme.apiKey };
      const byKey = { actor: { type: "api_key", id: acme.prefix }, ip_address: INTEGRATION_IP };

      const subscription = await payment(world.stack, acme.apiKey, "completed", { is_subscription: true, plan_type: "monthly" });
      // Its first charge settles a moment after the simulation (payments follows its own event).
      await eventually(() => ok({ method: "POST", url: `/api/merchants/subscriptions/${subscription.checkoutId}`, payload: { amount: "120.00" }, headers: asAcme }));
      await ok({ method: "POST", url: `/api/merchants/subscriptions/${subscription.checkoutId}`, payload: { amount: "120.00" }, headers: asAcme });
      expect(await entryOf(acme.apiKey, "subscription.amount_changed", subscription.checkoutId)).toMatchObject({ ...byKey, object: { type: "subscription", id: subscription.checkoutId } });
      // The helper simulated its first charge from the test's own address.
      expect(await entryOf(acme.apiKey, "transaction.simulated", subscription.uuid)).toMatchObject({ actor: byKey.actor, object: { type: "transaction", id: subscription.uuid } });

      const review = await ok({ method: "POST", url: "/api/merchants/compliance/annual_reviews", payload: { notes: "Reviewed the rules with the ODFI." }, headers: asAcme });
      expect(await entryOf(acme.apiKey, "annual_review.recorded", review.id)).toMatchObject({ ...byKey, object: { type: "annual_review", id: review.id } });

      const checkout = await ok({ method: "POST", url: "/api/merchants/checkout", payload: sampleCheckout(), headers: asAcme });
      const link = await ok({ url: `/api/merchants/checkout/${checkout.id}/generate_link_token`, headers: asAcme });
      const linked = await entryOf(acme.apiKey, "checkout.link_token_created", checkout.id);
      expect(linked).toMatchObject({ ...byKey, object: { type: "checkout", id: checkout.id } });
      expect(JSON.stringify(linked)).not.toContain(link.link_token);

      await ok({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: world.receiver.url, enabled_events: ["refund.approved"] }, headers: asAcme });
      const test = await ok({ method: "POST", url: "/api/sandbox/events", payload: { type: "refund.approved" }, headers: asAcme });
      expect(await entryOf(acme.apiKey, "event.test_sent", test.id)).toMatchObject({ ...byKey, object: { type: "event", id: test.id } });
      await ok({ method: "POST", url: `/api/merchants/events/${test.id}/redeliver`, headers: asAcme });
      // A second redelivery within the minute is refused: no delivery, no entry.
      expect((await send({ method: "POST", url: `/api/merchants/events/${test.id}/redeliver`, headers: asAcme })).statusCode).toBe(429);
      expect(await entryOf(acme.apiKey, "event.redelivered", test.id)).toMatchObject(byKey);

      const pending = await payment(world.stack, acme.apiKey, "pending");
      for (let i = 0; i < 2; i++) await ok({ method: "POST", url: `/api/sandbox/transfers/${pending.uuid}/simulate`, payload: { status: "completed" }, headers: asAcme });
      // The second found the transfer final: it moved nothing and records nothing.
      expect(await entryOf(acme.apiKey, "transaction.simulated", pending.uuid)).toMatchObject(byKey);
      acmeIds.push(review.id, test.id, pending.uuid);
    });

    it("shows a merchant its own entries only, and refuses another merchant's entry as a cursor", async () => {
      const theirs = await log(globex.apiKey);
      expect(theirs.data.filter((e) => acmeIds.includes(e.object.id))).toEqual([]);
      const ours = await log(acme.apiKey);
      expect(ours.data.length).toBeGreaterThanOrEqual(acmeIds.length);
      const reply = await send({ url: `/api/merchants/audit_log?starting_after=${ours.data[0]!.id}`, headers: { "api-key": globex.apiKey } });
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error).toMatchObject({ code: "parameter_invalid", param: "starting_after" });
    });

    it("pages newest first with starting_after, and filters by action and time", async () => {
      const all = (await log(acme.apiKey)).data;
      const paged: AuditEntry[] = [];
      for (;;) {
        const after = paged.length ? `&starting_after=${paged[paged.length - 1]!.id}` : "";
        const page = await ok({ url: `/api/merchants/audit_log?limit=3${after}`, headers: { "api-key": acme.apiKey } });
        expect(page.data.length).toBeLessThanOrEqual(3);
        paged.push(...page.data);
        if (!page.has_more) break;
      }
      expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
      const times = paged.map((e) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);

      const approvals = (await log(acme.apiKey, "&action=refund.approved")).data;
      expect(approvals.length).toBe(3);
      expect(approvals.every((e) => e.action === "refund.approved")).toBe(true);
      const middle = all[Math.floor(all.length / 2)]!.created_at;
      const before = (await log(acme.apiKey, `&to=${encodeURIComponent(middle)}`)).data;
      const from = (await log(acme.apiKey, `&from=${encodeURIComponent(middle)}`)).data;
      expect(before.every((e) => e.created_at < middle) && from.every((e) => e.created_at >= middle)).toBe(true);
      expect(before.length + from.length).toBe(all.length);
      expect((await log(acme.apiKey, "&from=2100-01-01")).data).toEqual([]);
    });

    it("answers a malformed filter 400 naming it", async () => {
      for (const [query, param] of [
        ["from=yesterday", "from"],
        ["to=2026-13-01", "to"],
        ["action=refund.paid", "action"],
        ["limit=0", "limit"],
        ["starting_after=rfd_1", "starting_after"],
      ] as const) {
        const reply = await send({ url: `/api/merchants/audit_log?${query}`, headers: { "api-key": acme.apiKey } });
        expect(reply.statusCode, query).toBe(400);
        expect(reply.json().error.param, query).toBe(param);
      }
      expect((await send({ url: "/api/merchants/audit_log" })).statusCode).toBe(401);
    });
  });

  it.skipIf(!!variant.skipReason)("lets a viewer read the log in the dashboard", async () => {
    const m = await world.stack.merchant("Audit viewer");
    const viewer: { client: DashboardClient } = await dashboardUser(world.stack.app, m.id, "viewer");
    const page = await viewer.client.get("/dashboard/audit-log");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Audit log");
  });
});

