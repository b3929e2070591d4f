import { observeRpc, type Transport } from "@payrail/messaging";
import { sendCodeLimitStats } from "@payrail/identity";
import { runningRelays } from "@payrail/store";
import { noticeStats } from "@payrail/notices";
import { deliveryStats } from "@payrail/webhooks";
import { returnRateStats } from "@payrail/payments";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

const RPC_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Business outcomes read from the domain events this process published: event type → label. */
const TRANSFER_EVENTS: Record<string, string> = {
  "transaction.created": "pending",
  "transaction.completed": "completed",
  "transaction.failed": "failed",
};
const REFUND_PREFIX = "refund.";

/**
 * The metrics every Payrail process serves besides the gateway's HTTP ones: process defaults,
 * RPC latency and outcome by operation on both sides of the bus, domain events by type
 * (published, consumed, retried, dead-lettered), the outbox relays' lag, and business counters.
 *
 * Nothing is counted twice: event and outbox numbers are read from the transport and the
 * relays when scraped; RPC samples arrive from the process-wide observer. Labels come from
 * fixed sets (operation patterns, registry error codes, catalogued event types).
 */
export function createProcessMetrics(transport: Transport): { registry: Registry; close(): void } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const rpc = (side: "client" | "server", help: string) =>
    new Histogram({
      name: `payrail_rpc_${side}_duration_seconds`,
      help,
      labelNames: ["operation", "outcome"] as const,
      buckets: RPC_BUCKETS,
      registers: [registry],
    });
  const client = rpc("client", "RPC calls this process made, by operation and outcome (ok or the error code)");
  const server = rpc("server", "RPC requests this process's services handled, by operation and outcome (ok or the error code)");
  const codesSent = new Counter({
    name: "payrail_verification_codes_sent_total",
    help: "Verification codes texted (identity.sendCode answered ok)",
    registers: [registry],
  });
  const unobserve = observeRpc((sample) => {
    (sample.side === "client" ? client : server).observe({ operation: sample.operation, outcome: sample.outcome }, sample.seconds);
    if (sample.side === "server" && sample.operation === "identity.sendCode" && sample.outcome === "ok") codesSent.inc();
  });

  new Counter({
    name: "payrail_events_total",
    help: "Domain events by type and what happened to them here: published, consumed, retried, dead_lettered",
    labelNames: ["type", "result"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const { published, consumed, retried, deadLettered } = transport.stats().events;
      const results = { published, consumed, retried, dead_lettered: deadLettered };
      for (const [result, counts] of Object.entries(results)) {
        for (const [type, n] of Object.entries(counts)) this.inc({ type, result }, n);
      }
    },
  });
  new Counter({
    name: "payrail_event_dead_letters_total",
    help: "Events this process's subscribers gave up on, by subscribing service and cause: invalid, cannot_apply, retry_expired",
    labelNames: ["service", "cause"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { service, cause, count } of transport.stats().events.deadLetteredBy) this.inc({ service, cause }, count);
      // An outbox relay's poison events: published by nobody, so they are the relay's dead letters.
      for (const relay of runningRelays.list()) {
        const dead = relay.stats().deadLettered;
        if (dead > 0) this.inc({ service: `outbox:${relay.collections.join(",")}`, cause: "invalid" }, dead);
      }
    },
  });
  new Counter({
    name: "payrail_transfers_total",
    help: "Transfers started (pending), completed and failed, from the transaction events this process published",
    labelNames: ["status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [type, n] of Object.entries(transport.stats().events.published)) {
        const status = TRANSFER_EVENTS[type];
        if (status) this.inc({ status }, n);
      }
    },
  });
  new Counter({
    name: "payrail_refunds_total",
    help: "Refunds by status reached (requested, approved, rejected, processing, completed, failed), from the refund events this process published",
    labelNames: ["status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [type, n] of Object.entries(transport.stats().events.published)) {
        if (type.startsWith(REFUND_PREFIX)) this.inc({ status: type.slice(REFUND_PREFIX.length) }, n);
      }
    },
  });
  new Counter({
    name: "payrail_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome: succeeded, failed (retried or given up), endpoint_disabled (a failure that disabled its endpoint)",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(deliveryStats.snapshot())) this.inc({ outcome }, n);
    },
  });
  new Counter({
    name: "payrail_notice_attempts_total",
    help: "Consumer notice send attempts by outcome: sent, retried (a failure that may pass), failed (a bounce, or the retries ran out)",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(noticeStats.snapshot())) this.inc({ outcome }, n);
    },
  });
  new Counter({
    name: "payrail_send_code_limited_total",
    help: "send_code requests refused with 429 by the limit that refused them: phone (resend rules), address (per client address a sliding hour), country (new numbers per calling code), total (new numbers in all)",
    labelNames: ["limit"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [limit, n] of Object.entries(sendCodeLimitStats.snapshot())) this.inc({ limit }, n);
    },
  });
  new Gauge({
    name: "payrail_return_rate",
    help: "ACH return rate over the last 60 days by merchant and NACHA group (unauthorized, administrative, overall), as last computed by this process's payments service",
    labelNames: ["merchant_id", "group"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { merchantId, group, rate } of returnRateStats.snapshot()) this.set({ merchant_id: merchantId, group }, rate);
    },
  });
  new Gauge({
    name: "payrail_outbox_lag_seconds",
    help: "Age of the oldest event an outbox relay could not publish yet (0 when none), by the collections it relays",
    labelNames: ["collections"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const relay of runningRelays.list()) this.set({ collections: relay.collections.join(",") }, relay.stats().lagMs / 1000);
    },
  });
  new Counter({
    name: "payrail_outbox_published_total",
    help: "Events the outbox relays of this process published, by the collections they relay",
    labelNames: ["collections"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const relay of runningRelays.list()) this.inc({ collections: relay.collections.join(",") }, relay.stats().published);
    },
  });
  return { registry, close: unobserve };
}
