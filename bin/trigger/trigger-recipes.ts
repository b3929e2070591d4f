import { createPayrailClient, type PayrailClient } from "@payrail/client";
import { checkoutWhen, createCheckout, linkCheckout, payCheckout, settle, type Step } from "../demo/sandbox-steps.ts";

/** Where a recipe runs: a merchant's client on a sandbox Payrail. */
export interface TriggerContext {
  baseUrl: string;
  merchant: PayrailClient;
  step: Step;
}

/** What a recipe made: the checkout, and the id the triggered event's object must carry. */
export interface Triggered {
  checkoutId: string;
  /** The id (`chk_…`, `sc-…`, `rfd_…`, `mdt_…`) that names the object of the event it caused. */
  key: string;
}

interface Recipe {
  /** What happens, for `payrail trigger --help`. */
  does: string;
  run(ctx: TriggerContext): Promise<Triggered>;
}

/**
 * Each event the sandbox can make happen through the real flow (the same calls a merchant and
 * its consumer make, the bank simulated): the merchant's handler then receives objects that
 * exist and link to each other, not samples. `subscription.unpaid` needs a deployment with
 * `RENEWAL_FINAL_STATUS=unpaid` and `merchant.return_rate_warning` a history of returns, so
 * neither is offered; `POST /api/sandbox/events` still sends samples of every type.
 */
export const TRIGGER_RECIPES: Record<string, Recipe> = {
  "checkout.created": {
    does: "a one-off checkout is created",
    run: async ({ merchant, step }) => {
      const checkoutId = await createCheckout(merchant, step, false);
      return { checkoutId, key: checkoutId };
    },
  },
  "checkout.payment_method_saved": {
    does: "a consumer links a sandbox bank account to a new checkout",
    run: async ({ merchant, baseUrl, step }) => {
      const { checkoutId } = await linkCheckout(merchant, baseUrl, step, false);
      return { checkoutId, key: checkoutId };
    },
  },
  "mandate.created": {
    does: "the merchant's first debit of a linked checkout records its mandate",
    run: async (ctx) => {
      const { checkoutId } = await payCheckout(ctx.merchant, ctx.baseUrl, ctx.step, false);
      return { checkoutId, key: checkoutId };
    },
  },
  "transaction.created": {
    does: "Get Processor Token starts the transfer of a linked checkout",
    run: async (ctx) => {
      const paid = await payCheckout(ctx.merchant, ctx.baseUrl, ctx.step, false);
      return { checkoutId: paid.checkoutId, key: paid.transactionUuid };
    },
  },
  "transaction.completed": {
    does: "a checkout's transfer settles",
    run: async (ctx) => {
      const paid = await paidCheckout(ctx, false);
      return { checkoutId: paid.checkoutId, key: paid.transactionUuid };
    },
  },
  "transaction.failed": {
    does: "a checkout's transfer fails before it settles (R01, insufficient funds)",
    run: async (ctx) => {
      const paid = await payCheckout(ctx.merchant, ctx.baseUrl, ctx.step, false);
      await settle(ctx.merchant, ctx.step, paid.transactionUuid, "    the bank fails the transfer", "R01");
      return { checkoutId: paid.checkoutId, key: paid.transactionUuid };
    },
  },
  "transaction.returned": {
    does: "a settled transfer comes back (R10, not authorized)",
    run: async (ctx) => {
      const paid = await paidCheckout(ctx, false);
      await settle(ctx.merchant, ctx.step, paid.transactionUuid, "    the bank returns the debit", "R10");
      return { checkoutId: paid.checkoutId, key: paid.transactionUuid };
    },
  },
  "subscription.renewed": {
    does: "a monthly subscription's test clock reaches its next charge, which settles",
    run: async (ctx) => {
      const { checkoutId, renewal: uuid } = await renewal(ctx);
      await settle(ctx.merchant, ctx.step, uuid, "    the bank settles the renewal");
      return { checkoutId, key: uuid };
    },
  },
  "subscription.past_due": {
    does: "a monthly subscription's renewal fails (R01) and is to be retried",
    run: async (ctx) => {
      const { checkoutId, renewal: uuid } = await renewal(ctx);
      await settle(ctx.merchant, ctx.step, uuid, "    the bank fails the renewal", "R01");
      return { checkoutId, key: uuid };
    },
  },
  "subscription.cancelled": {
    does: "the consumer cancels a paid monthly subscription",
    run: async (ctx) => cancelled(ctx),
  },
  "mandate.revoked": {
    does: "the consumer cancels a paid monthly subscription, which revokes its mandate",
    run: async (ctx) => cancelled(ctx),
  },
  "refund.requested": {
    does: "the consumer asks for a settled payment back",
    run: async (ctx) => refundUntil(ctx, "requested"),
  },
  "refund.approved": {
    does: "the merchant approves a consumer's refund request",
    run: async (ctx) => refundUntil(ctx, "approved"),
  },
  "refund.rejected": {
    does: "the merchant rejects a consumer's refund request",
    run: async (ctx) => refundUntil(ctx, "rejected"),
  },
  "refund.processing": {
    does: "the merchant starts an approved refund's transfer",
    run: async (ctx) => refundUntil(ctx, "processing"),
  },
  "refund.completed": {
    does: "a refund's transfer reaches the consumer",
    run: async (ctx) => refundUntil(ctx, "completed"),
  },
  "refund.failed": {
    does: "a refund's transfer comes back (R03, no account)",
    run: async (ctx) => refundUntil(ctx, "failed"),
  },
};

/** Steps 1–8 and the transfer settled, once the checkout shows it paid. */
async function paidCheckout(ctx: TriggerContext, subscription: boolean) {
  const paid = await payCheckout(ctx.merchant, ctx.baseUrl, ctx.step, subscription);
  await settle(ctx.merchant, ctx.step, paid.transactionUuid, "    the bank settles the transfer");
  const ready = subscription ? (c: { next_charge_at?: string | null }) => !!c.next_charge_at : (c: { status: string }) => c.status === "paid";
  await ctx.step(" 2. Get Checkout", checkoutWhen(ctx.merchant, paid.checkoutId, ready), (c) => `status ${c.status}`);
  return paid;
}

/** A paid monthly subscription whose test clock moved to its next charge: the renewal's record, pending. */
async function renewal(ctx: TriggerContext): Promise<{ checkoutId: string; renewal: string }> {
  const paid = await paidCheckout(ctx, true);
  const checkout = await ctx.step(
    " 2. Get Checkout",
    checkoutWhen(ctx.merchant, paid.checkoutId, (c) => !!c.next_charge_at),
    (c) => `next charge at ${c.next_charge_at}`,
  );
  const records = await ctx.step(
    "    advance the test clock",
    ctx.merchant.POST("/api/sandbox/subscriptions/{transaction_uuid}/advance", {
      params: { path: { transaction_uuid: paid.transactionUuid } },
      body: { to: checkout.next_charge_at ?? new Date().toISOString() },
    }),
    (r) => `${r.length} records`,
  );
  const next = records.find((r) => r.transaction_uuid !== paid.transactionUuid && r.transaction_status === "pending");
  if (!next) throw new Error("advance the test clock: no renewal was charged");
  return { checkoutId: paid.checkoutId, renewal: next.transaction_uuid };
}

async function cancelled(ctx: TriggerContext): Promise<Triggered> {
  const paid = await paidCheckout(ctx, true);
  const consumer = createPayrailClient(ctx.baseUrl, { authToken: paid.authToken });
  await ctx.step(
    "10. Subscription Cancel",
    consumer.POST("/api/merchants/manage_subscription/subscription_cancel", { body: { subscription_transaction_uuid: paid.transactionUuid } }),
    (a) => a.message,
  );
  return { checkoutId: paid.checkoutId, key: paid.checkoutId };
}

type RefundStage = "requested" | "approved" | "rejected" | "processing" | "completed" | "failed";

/** A settled one-off payment, its full refund requested by the consumer, then taken as far as `stage`. */
async function refundUntil(ctx: TriggerContext, stage: RefundStage): Promise<Triggered> {
  const paid = await paidCheckout(ctx, false);
  const consumer = createPayrailClient(ctx.baseUrl, { authToken: paid.authToken });
  const asked = await ctx.step(
    "11. Consumer Refund Request",
    consumer.POST("/api/merchants/refund_request/consumer_refund_request", { body: { transaction_uuid: paid.transactionUuid, reason: "payrail trigger" } }),
    (a) => `${a.refund.id} ${a.refund.status}`,
  );
  const done = { checkoutId: paid.checkoutId, key: asked.refund.id };
  if (stage === "requested") return done;
  await ctx.step(
    "13. Merchant Status Refund Request",
    ctx.merchant.POST("/api/merchants/refund_request/merchant_status_refund_request", {
      body: { id: asked.refund.id, status: stage === "rejected" ? "Rejected" : "Approved" },
    }),
    (a) => a.refund.status,
  );
  if (stage === "approved" || stage === "rejected") return done;
  const sent = await ctx.step(
    "14. Initiate Refund Transfer",
    ctx.merchant.POST("/api/merchants/refund_request/initiate_refund_transfer", { body: { id: asked.refund.id, status: "approved" } }),
    (a) => `${a.refund.status}, transfer ${a.refund.refund_transaction_id}`,
  );
  if (stage === "processing") return done;
  const failure = stage === "failed" ? "R03" : undefined;
  await settle(ctx.merchant, ctx.step, sent.refund.refund_transaction_id ?? "", "    the bank settles the refund transfer", failure);
  return done;
}
