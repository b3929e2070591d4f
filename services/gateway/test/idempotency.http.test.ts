import { randomBytes } from "node:crypto";
import { createCheckoutOp, getProcessorTokenOp } from "@payrail/contracts";
import { LEASE_MS, requestFingerprint } from "@payrail/messaging";
import { SecretBox } from "@payrail/runtime";
import { createReplyLedger } from "@payrail/store";
import { describe, expect, it } from "vitest";
import { sampleCheckout } from "../../../test/support/fixtures.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { withTwoMerchants } from "../../../test/support/stack.ts";

/*
 * Issue 13, item 2: a POST repeated with its Idempotency-Key gets the first answer (docs/api-notes.md, Requests),
 * a redelivered or retried RPC returns the first result, and a duplicate names what it hit.
 */
const variants = await infraVariants();

describe.each(variants)("Idempotency-Key and repeated calls over $name", (variant) => {
  const world = withTwoMerchants(variant);

  const create = (apiKey: string, body: Record<string, unknown>, key?: string) =>
    world.stack.app.inject({
      method: "POST",
      url: "/api/merchants/checkout",
      payload: body,
      headers: { "api-key": apiKey, ...(key === undefined ? {} : { "idempotency-key": key }) },
    });
  const findByMerchantCheckoutId = async (apiKey: string, id: string) => {
    const res = await world.stack.app.inject({
      method: "GET",
      url: `/api/merchants/checkout?merchant_checkout_id=${encodeURIComponent(id)}`,
      headers: { "api-key": apiKey },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { data: { id: string; merchant_checkout_id: string }[]; has_more: boolean };
  };
  const uniqueBody = () => sampleCheckout({ merchant_checkout_id: `order-${randomBytes(6).toString("hex")}` });
  const newKey = () => `key-${randomBytes(8).toString("hex")}`;

  describe.skipIf(!!variant.skipReason)("HTTP", () => {
    it("replays the first response, with Idempotent-Replayed, for the same key and body", async () => {
      const body = uniqueBody();
      const key = newKey();
      const first = await create(world.acme.apiKey, body, key);
      expect(first.statusCode).toBe(200);
      expect(first.headers["idempotent-replayed"]).toBeUndefined();
      // The reply is recorded just behind the answer (docs/decisions/0028-run-once-and-idempotency.md):
      // a repeat landing in between is told the key is in use (409, seen once on FerretDB), and a
      // merchant sends it again, as here; any other answer fails.
      let again = await create(world.acme.apiKey, body, key);
      for (let tries = 1; again.statusCode === 409 && again.json().error?.code === "idempotency_key_in_use" && tries < 50; tries++) {
        await new Promise((r) => setTimeout(r, 100));
        again = await create(world.acme.apiKey, body, key);
      }
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(again.headers["idempotent-replayed"]).toBe("true");
      const found = await findByMerchantCheckoutId(world.acme.apiKey, body.merchant_checkout_id as string);
      expect(found.data.map((c) => c.id)).toEqual([first.json().id]);
    });

    it("creates one checkout when 20 requests with one key race, and every 200 names it", async () => {
      const body = uniqueBody();
      const key = newKey();
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(world.acme.apiKey, body, key)));
      const found = await findByMerchantCheckoutId(world.acme.apiKey, body.merchant_checkout_id as string);
      expect(found.data).toHaveLength(1);
      const ok = answers.filter((a) => a.statusCode === 200);
      const busy = answers.filter((a) => a.statusCode === 409);
      expect(ok.length + busy.length).toBe(20);
      for (const a of ok) expect(a.json()).toEqual({ id: found.data[0]!.id });
      expect(ok.filter((a) => a.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
      for (const a of busy) expect(a.json().error).toMatchObject({ type: "conflict_error", code: "idempotency_key_in_use" });
      // Once it finished, the key answers the stored response to everyone.
      const later = await create(world.acme.apiKey, body, key);
      expect(later.statusCode).toBe(200);
      expect(later.json()).toEqual({ id: found.data[0]!.id });
    });

    it("refuses the same key with a different body (400 idempotency_key_reused)", async () => {
      const key = newKey();
      expect((await create(world.acme.apiKey, uniqueBody(), key)).statusCode).toBe(200);
      const other = await create(world.acme.apiKey, uniqueBody(), key);
      expect(other.statusCode).toBe(400);
      expect(other.json().error).toMatchObject({ code: "idempotency_key_reused", param: "Idempotency-Key", request_id: expect.any(String) });
    });

    it("scopes keys to the credential's owner: another merchant's same key runs its own request", async () => {
      const key = newKey();
      const body = uniqueBody();
      const mine = await create(world.acme.apiKey, body, key);
      const theirs = await create(world.globex.apiKey, body, key);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
      expect(theirs.json().id).not.toBe(mine.json().id);
    });

    it("replays an error answer too: a duplicate's 409 with existing_id", async () => {
      const body = uniqueBody();
      const { id } = (await create(world.acme.apiKey, body)).json();
      const key = newKey();
      const dup = await create(world.acme.apiKey, body, key);
      expect(dup.statusCode).toBe(409);
      expect(dup.json().error).toMatchObject({ code: "duplicate_merchant_checkout_id", existing_id: id, param: "merchant_checkout_id" });
      const again = await create(world.acme.apiKey, body, key);
      expect(again.statusCode).toBe(409);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(again.json().error).toMatchObject({ code: "duplicate_merchant_checkout_id", existing_id: id });
    });

    it("refuses a malformed key before anything runs", async () => {
      const body = uniqueBody();
      for (const key of ["x".repeat(256), "tab\there", "é"]) {
        const res = await create(world.acme.apiKey, body, key);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: "parameter_invalid", param: "Idempotency-Key" });
      }
      expect((await findByMerchantCheckoutId(world.acme.apiKey, body.merchant_checkout_id as string)).data).toEqual([]);
    });

    it("filters the list by merchant_checkout_id, only among the caller's checkouts", async () => {
      const body = uniqueBody();
      const { id } = (await create(world.acme.apiKey, body)).json();
      const mcid = body.merchant_checkout_id as string;
      expect(await findByMerchantCheckoutId(world.acme.apiKey, mcid)).toEqual({
        data: [expect.objectContaining({ id, merchant_checkout_id: mcid })],
        has_more: false,
      });
      expect(await findByMerchantCheckoutId(world.globex.apiKey, mcid)).toEqual({ data: [], has_more: false });
      expect(await findByMerchantCheckoutId(world.acme.apiKey, "no-such-order")).toEqual({ data: [], has_more: false });
    });
  });

  describe.skipIf(!!variant.skipReason)("RPC", () => {
    it("answers 20 deliveries of one call with the first run's reply, and runs it once", async () => {
      const principal = { kind: "merchant" as const, merchantId: world.acme.id, keyPrefix: "sk_test_x", livemode: false };
      const body = uniqueBody();
      const callId = `call-${randomBytes(8).toString("hex")}`;
      const ctx = { requestId: "req_redelivered", principal };
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => world.stack.transport.call(createCheckoutOp, { checkout: body as never }, ctx, { callId })),
      );
      const found = await findByMerchantCheckoutId(world.acme.apiKey, body.merchant_checkout_id as string);
      expect(found.data).toHaveLength(1);
      for (const r of replies) expect(r).toEqual({ id: found.data[0]!.id });
      // A later repeat (a redelivery after the reply was sent) still gets it.
      expect(await world.stack.transport.call(createCheckoutOp, { checkout: body as never }, ctx, { callId })).toEqual({ id: found.data[0]!.id });
    });

    it("answers a Get Processor Token call repeated after it finished from its attempt: one transfer, and the ledger keeps no record of it", async () => {
      const principal = { kind: "merchant" as const, merchantId: world.acme.id, keyPrefix: "sk_test_x", livemode: false };
      const { id } = await linkedCheckoutOverRpc(world.stack.transport, principal);
      const callId = `call-${randomBytes(8).toString("hex")}`;
      const ctx = { requestId: "req_repeated_transfer", principal };
      const first = await world.stack.transport.call(getProcessorTokenOp, { checkout_id: id }, ctx, { callId });
      expect(first).toMatchObject({ message: "Transaction executed", transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(await world.stack.transport.call(getProcessorTokenOp, { checkout_id: id }, ctx, { callId })).toEqual(first);
      const ledger = (await variant.store()).collection<{ _id: string }>("rpc_replies");
      expect(await ledger.findOne({ _id: `call:${callId}` })).toBeNull();
      expect(await ledger.findOne({ _id: `call:${callId}|done` })).toBeNull();
      const transactions = (await variant.store()).collection<{ _id: string; checkoutRef: string }>("transactions");
      expect((await transactions.find({ processor_transaction_id: first.transaction_id })).map((t) => t.checkoutRef)).toEqual([id]);
    });

    it("answers a create repeated after it finished from the checkout itself: the ledger keeps no record of creates", async () => {
      const principal = { kind: "merchant" as const, merchantId: world.acme.id, keyPrefix: "sk_test_x", livemode: false };
      const body = uniqueBody();
      const callId = `call-${randomBytes(8).toString("hex")}`;
      const ctx = { requestId: "req_repeated", principal };
      const first = await world.stack.transport.call(createCheckoutOp, { checkout: body as never }, ctx, { callId });
      expect(await world.stack.transport.call(createCheckoutOp, { checkout: body as never }, ctx, { callId })).toEqual(first);
      // Another call (a client sending the order again) is still told it is a duplicate.
      const other = await world.stack.transport.call(createCheckoutOp, { checkout: body as never }, ctx, { once: true }).catch((e: unknown) => e);
      expect(other).toMatchObject({ code: "duplicate_merchant_checkout_id", existingId: first.id });
      const ledger = (await variant.store()).collection<{ _id: string }>("rpc_replies");
      expect(await ledger.findOne({ _id: `call:${callId}` })).toBeNull();
    });

    it("runs a call whose first runner died once its lease ends (at most 3 s), not after the timeout", async () => {
      const principal = { kind: "merchant" as const, merchantId: world.acme.id, keyPrefix: "sk_test_x", livemode: false };
      const body = uniqueBody();
      const callId = `call-${randomBytes(8).toString("hex")}`;
      const idempotencyKey = newKey();
      const payload = { checkout: body as never };
      // What a killed instance leaves behind: its claim on the key, still running, lease unrenewed.
      // (A create keeps its call id on the checkout itself; the ledger holds it only with a key.)
      const ledger = await createReplyLedger(await variant.store(), { sealer: new SecretBox(randomBytes(32)) });
      const fingerprint = requestFingerprint(createCheckoutOp.pattern, createCheckoutOp.request.parse(payload));
      const key = `key:merchant:${world.acme.id}:${idempotencyKey}`;
      const deadLeaseUntil = Date.now() + LEASE_MS;
      expect(await ledger.claim(key, fingerprint, callId, deadLeaseUntil, Date.now() + 60_000)).toBeNull();
      // A reply within the call's 15 s means it ran once the 3 s lease ended, not once the claim's
      // record expired (60 s); it may not run before the dead runner's lease ended.
      const reply = await world.stack.transport.call(createCheckoutOp, payload, { requestId: "req_after_crash", principal }, { callId, idempotencyKey, timeoutMs: 15_000 });
      expect(Date.now(), "answered only once the dead runner's lease had ended").toBeGreaterThanOrEqual(deadLeaseUntil);
      const found = await findByMerchantCheckoutId(world.acme.apiKey, body.merchant_checkout_id as string);
      expect(found.data.map((c) => c.id)).toEqual([(reply as { id: string }).id]);
    });
  });
});
