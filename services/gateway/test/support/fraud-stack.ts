import { randomBytes } from "node:crypto";
import type { TransferPort } from "@payrail/payments";
import { loadConfig, silentLogger } from "@payrail/runtime";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { startServices } from "../../../../bin/wiring.ts";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../../test/support/stack.ts";
import { linkedCheckout, type LinkedCheckout } from "./payment-flow.ts";

/**
 * Screening that flags a first debit above $500 from a just-linked account (new_account_amount),
 * so a test picks which first debits are held by their amount, and any debit of a consumer who
 * made one in the last 24 h (phone_velocity): a subscription's renewals are held.
 */
export const FRAUD_TEST_ENV = { FRAUD_NEW_ACCOUNT_LIMIT: "500.00", FRAUD_PHONE_DEBITS_PER_DAY: "1", REVIEW_SWEEP_EVERY: "200ms", TRANSFER_LEASE_MS: "1000" };

/** A checkout of $600: held. */
export const HELD_AMOUNTS = { amounts: { total: 600, subtotal: "600.00", tax: 0, shipping: 0, discount_total: null, currency: "USD" } };

export interface FraudWorld {
  stack: Stack;
  merchant: { id: string; apiKey: string };
  /** createTransfer calls the provider got, by idempotency key. */
  transferCalls: Map<string, number>;
  /** Idempotency keys whose next createTransfer fails (a provider outage), once each. */
  failNext: Set<string>;
}

/**
 * The stack (with the webhooks service, for the events API, and the ledger, for the audit log) with screening set by `env`, its
 * transfer provider counted and able to fail once per key; one merchant.
 */
export function withFraudStack(variant: InfraVariant, env: Record<string, string>): FraudWorld {
  const world = { transferCalls: new Map(), failNext: new Set() } as unknown as FraudWorld;
  let webhooks: { stop(): Promise<void> }[] = [];
  const wrapTransfers = (inner: TransferPort): TransferPort => ({
    ...inner,
    provider: inner.provider,
    ensureCustomer: (input) => inner.ensureCustomer(input),
    createFundingSource: (input) => inner.createFundingSource(input),
    getTransfer: (id) => inner.getTransfer(id),
    findTransfer: (input) => inner.findTransfer(input),
    initiateMicroDeposits: (input) => inner.initiateMicroDeposits(input),
    verifyMicroDeposits: (input) => inner.verifyMicroDeposits(input),
    createTransfer: async (input) => {
      world.transferCalls.set(input.idempotencyKey, (world.transferCalls.get(input.idempotencyKey) ?? 0) + 1);
      if (world.failNext.delete(input.idempotencyKey)) throw new Error("the provider is unreachable (test)");
      return inner.createTransfer(input);
    },
  });
  beforeAll(async () => {
    if (variant.skipReason) return;
    world.stack = await startStack(variant, { env, wrapTransfers });
    const config = loadConfig({ SECRETS_KEY: randomBytes(32).toString("base64") });
    webhooks = await startServices(["webhooks", "ledger"], { config, logger: silentLogger(), transport: await variant.transport(), store: await variant.store() });
    world.merchant = await world.stack.merchant("Fraud Test Shop");
  });
  afterAll(async () => {
    for (const service of webhooks) await service.stop();
    await world.stack?.close();
    await variant.cleanup();
  });
  return world;
}

/** HTTP helpers over a FraudWorld's merchant. */
export function fraudClient(world: FraudWorld) {
  const headers = () => ({ "api-key": world.merchant.apiKey });
  const inject = (method: "GET" | "POST", url: string, payload?: object) => world.stack.app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) });
  return {
    inject,
    linked: (overrides: Record<string, unknown> = {}): Promise<LinkedCheckout> => linkedCheckout(world.stack, world.merchant.apiKey, overrides),
    charge: (checkoutId: string) => chargedAsAMerchantWould(() => inject("POST", "/api/merchants/payment_preprocess/get_processor_token", { checkout_id: checkoutId })),
    review: async (id: string) => {
      const reply = await inject("GET", `/api/merchants/reviews/${id}`);
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json() as { id: string; status: string; rules: { rule: string; facts: Record<string, number> }[]; closed_by: unknown };
    },
    decide: (id: string, decision: "approve" | "cancel") => inject("POST", `/api/merchants/reviews/${id}/${decision}`),
    checkout: async (id: string) => (await inject("GET", `/api/merchants/checkout/${id}`)).json() as { status: string; transfer: { status: string } | null },
    records: async (c: LinkedCheckout["consumer"]) =>
      (await world.stack.app.inject({ url: "/api/merchants/manage_subscription/get_subscription_details", headers: { authorization: `Token ${c.token}` } })).json() as Record<string, unknown>[],
    events: async (type: string) =>
      ((await inject("GET", `/api/merchants/events?type=${type}`)).json() as { data: { data: { object: Record<string, unknown> } }[] }).data.map((e) => e.data.object),
  };
}

/** How long a charge is sent again while its transfer is in progress (far past the stacks' 1 s lease). */
const IN_PROGRESS_RETRY_MS = 30_000;

/**
 * A charge as a merchant sends it: again, after the answer's Retry-After, while it is 409
 * `transfer_in_progress` (docs/guide/merchant-integration.md). These stacks run a 1 s transfer lease so the review
 * sweep's tests take over quickly; on a loaded machine a renewal on the Mongo-wire store can take
 * longer than that, the call loses its lease and stops with that answer (seen beside another CI
 * run), and the next call finishes the work. Any other answer is the test's to check.
 */
async function chargedAsAMerchantWould(send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const deadline = Date.now() + IN_PROGRESS_RETRY_MS;
  for (;;) {
    const reply = await send();
    if (reply.statusCode !== 409 || Date.now() > deadline || (reply.json() as { error?: { code?: string } }).error?.code !== "transfer_in_progress") return reply;
    await new Promise((resolve) => setTimeout(resolve, Number(reply.headers["retry-after"] ?? 1) * 1000));
  }
}
