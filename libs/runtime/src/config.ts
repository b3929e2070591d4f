import { z } from "zod";
import { FRAUD_CONFIG } from "./fraud-config.ts";
import { TrustProxySchema } from "./trust-proxy.ts";

export const SERVICE_NAMES = ["gateway", "checkout", "identity", "payments", "refunds", "webhooks", "notices", "ledger"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const emptyAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
/** `true`/`false` (or `1`/`0`); unset or empty: undefined, so the caller picks the default. */
const optionalBoolean = z.preprocess(
  emptyAsUndefined,
  z
    .enum(["true", "false", "1", "0"])
    .transform((v) => v === "true" || v === "1")
    .optional(),
);
/** A comma-separated list of broker user names; unset or empty: undefined. */
const userList = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
    .optional(),
);
/**
 * `service:user,service:user,…`: the broker users of each domain service (a service may have
 * several, e.g. while its password is rotated); unset or empty: undefined. The service name
 * is needed, not only the user: a service principal must name its sender's own service, and
 * an event type is accepted only from its owning service's users.
 */
const serviceUserMap = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .transform((v, ctx) => {
      const map: Record<string, string[]> = {};
      for (const entry of v.split(",").map((s) => s.trim()).filter(Boolean)) {
        const match = /^([a-z][a-z0-9-]*):(\S+)$/.exec(entry);
        if (!match) {
          ctx.addIssue({ code: "custom", message: `"${entry}" is not service:user (e.g. payments:payrail-payments)` });
          return z.NEVER;
        }
        (map[match[1]!] ??= []).push(match[2]!);
      }
      return map;
    })
    .optional(),
);
const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** `250ms`, `5s`, `30m`, `2h`, `3d` (or a bare number of milliseconds) in milliseconds; undefined when it is none. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  return match ? Number(match[1]) * DURATION_UNITS_MS[(match[2] ?? "ms") as keyof typeof DURATION_UNITS_MS] : undefined;
}
const durationMs = z.string().transform((v, ctx) => {
  const ms = parseDuration(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `"${v}" is not a duration like 500ms, 5s, 30m, 2h or 3d` });
    return z.NEVER;
  }
  return ms;
});

/** The environment variables (docs/guide/operator.md, Configuration), plus the few operational ones the services need. */
export const ConfigSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(8080)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default("127.0.0.1")),
  AMQP_URL: optionalString,
  MONGODB_URL: optionalString,
  /** Database name used with MONGODB_URL when the URL names none. */
  MONGODB_DB: z.preprocess(emptyAsUndefined, z.string().default("payrail")),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default("./.data")),
  SERVICES: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("all")
      .transform((v, ctx) => {
        if (v === "all") return [...SERVICE_NAMES];
        const names = v.split(",").map((s) => s.trim()).filter(Boolean);
        for (const n of names) {
          if (!(SERVICE_NAMES as readonly string[]).includes(n)) {
            ctx.addIssue({ code: "custom", message: `unknown service "${n}" (expected ${SERVICE_NAMES.join(", ")})` });
            return z.NEVER;
          }
        }
        return names as ServiceName[];
      }),
  ),
  PROVIDERS: z.preprocess(emptyAsUndefined, z.enum(["sandbox", "live"]).default("sandbox")),
  ADMIN_TOKEN: optionalString,
  SECRETS_KEY: optionalString,
  /** Plaid (bank data); payments requires the id and secret when PROVIDERS=live (checked at its start). */
  PLAID_CLIENT_ID: optionalString,
  PLAID_SECRET: optionalString,
  PLAID_ENV: z.preprocess(emptyAsUndefined, z.enum(["sandbox", "production"]).default("sandbox")),
  /** Overrides PLAID_ENV's URL (a proxy, or a local stand-in). */
  PLAID_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  /** Dwolla (transfers); payments requires the key and secret when PROVIDERS=live. */
  DWOLLA_KEY: optionalString,
  DWOLLA_SECRET: optionalString,
  DWOLLA_ENV: z.preprocess(emptyAsUndefined, z.enum(["sandbox", "production"]).default("sandbox")),
  /** Overrides DWOLLA_ENV's URL (a proxy, or a local stand-in). */
  DWOLLA_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  /** Signs transfer webhooks (HMAC-SHA256); unset, POST /api/webhooks/transfers refuses every call. */
  DWOLLA_WEBHOOK_SECRET: optionalString,
  /**
   * The transfer and renewal-charge leases: renewed every third of it while their holder works,
   * so this bounds how long a killed holder's work waits before another takes it over.
   */
  TRANSFER_LEASE_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1_000).max(600_000).default(10_000)),
  /**
   * Renewals: days after each R01/R09 failure was learnt at which it is retried (docs/api-notes.md, Subscriptions and renewals;
   * NACHA: at most 2 retries, within 180 days of the first presentment). Anything beyond those
   * bounds stops the start, naming this setting.
   */
  RENEWAL_RETRY_DAYS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\d+(,\d+)*$/, "comma-separated whole days")
      .default("3,5")
      .transform((s) => s.split(",").map(Number))
      .refine((days) => days.length <= 2, "NACHA allows at most 2 retries of a returned debit")
      .refine((days) => days.every((d) => d >= 1), "a retry is at least 1 day after the failure was learnt")
      .refine((days) => days.reduce((sum, d) => sum + d, 0) <= 170, "retries must fit within NACHA's 180 days of the first presentment (at most 170 days in all, leaving time for returns to arrive)"),
  ),
  /** Renewals: what a subscription becomes when its last retry failed. */
  RENEWAL_FINAL_STATUS: z.preprocess(emptyAsUndefined, z.enum(["cancelled", "unpaid"]).default("cancelled")),
  /** The reconciler (docs/api-notes.md, Convergence with the provider): what has been pending this long is looked up at the provider. */
  RECONCILE_AFTER: z.preprocess(emptyAsUndefined, z.string().default("1h").pipe(durationMs)),
  /** How often each payments instance tries a reconciler pass (one runs at a time across replicas); 0 turns it off. */
  RECONCILE_EVERY: z.preprocess(emptyAsUndefined, z.string().default("15m").pipe(durationMs)),
  /** How often each payments instance sweeps held debits past REVIEW_EXPIRES_HOURS (one sweep at a time across replicas); 0 turns it off. */
  REVIEW_SWEEP_EVERY: z.preprocess(emptyAsUndefined, z.string().default("1m").pipe(durationMs)),
  /** Days before an unchanged renewal its upcoming-charge notice goes (a changed amount: always 10, Reg E 1005.10(d)). */
  NOTICE_DAYS_BEFORE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10).default(3)),
  /** Renewals: how often each payments instance looks for due charges; 0 turns the scheduler off. */
  RENEWAL_POLL_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3_600_000).default(30_000)),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  /** `pretty` (colours, one readable line each), `json`, or `auto`: pretty on a terminal, JSON otherwise. */
  LOG_FORMAT: z.preprocess(emptyAsUndefined, z.enum(["auto", "pretty", "json"]).default("auto")),
  /**
   * A process without the gateway serves `/healthz`, `/readyz` and `/metrics` here (docs/api-notes.md, Operations);
   * unset: no such listener. The gateway serves them on its own port.
   */
  METRICS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65_535).optional()),
  /**
   * On SIGTERM the gateway answers `/readyz` with 503 but keeps serving new requests this long,
   * so a load balancer that polls `/readyz` stops sending before the listener closes
   * (docs/guide/operator.md, Stopping and draining). Behind Kubernetes the preStop wait does it: 0.
   */
  DRAIN_DELAY_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(60_000).default(0)),
  /** Default timeout of one RPC call. */
  RPC_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(120_000).default(10_000)),
  /**
   * The broker trust boundary (docs/decisions/0025-broker-trust-boundary.md): RabbitMQ users whose requests may carry
   * merchant, consumer and admin principals (the gateway's), users that may carry service
   * principals and pass on merchant and consumer ones (the domain services', by service:
   * `payments:payrail-payments,…`; they also decide whose events are accepted), and users that
   * may carry only the admin principal (the CLI's). AMQP_GATEWAY_USERS unset: every broker
   * user is trusted.
   */
  AMQP_GATEWAY_USERS: userList,
  AMQP_SERVICE_USERS: serviceUserMap,
  AMQP_ADMIN_USERS: userList,
  /** Messages a service instance works on at once (RabbitMQ prefetch). */
  RPC_PREFETCH: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(200)),
  /** How long the gateway trusts a resolved api-key; a revoked key stops working within this. */
  API_KEY_CACHE_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(300_000).default(5_000)),
  /** Requests per minute per credential before 429. */
  RATE_LIMIT_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(600)),
  /** Sandbox test events (`POST /api/sandbox/events`) per merchant per minute before 429 (per gateway unless SHARED_LIMITS). */
  SANDBOX_EVENTS_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(30)),
  /** Failed authentications (401s) per minute per client address and credential before 429 (per gateway unless SHARED_LIMITS). */
  AUTH_FAILURES_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(20)),
  /**
   * Whether the gateways' request limits are shared (docs/decisions/0049-shared-request-limits.md):
   * auto (the default) shares them when AMQP_URL is set, where gateways can be several.
   */
  SHARED_LIMITS: z.preprocess(emptyAsUndefined, z.enum(["auto", "on", "off"]).default("auto")),
  /** Which proxies' X-Forwarded-* the gateway believes (docs/api-notes.md, Limits): off, a hop count, or addresses/CIDRs. */
  TRUST_PROXY: z.preprocess(emptyAsUndefined, TrustProxySchema),
  /** Accepted send_code requests per client address per sliding hour; unset: 20 with live providers, 1,000 in the sandbox. */
  SEND_CODE_PER_ADDRESS_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  /** Accepted send_code requests to numbers that never verified, per country calling code per sliding hour; unset: a quarter of SEND_CODE_PER_HOUR. */
  SEND_CODE_PER_COUNTRY_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  /** Accepted send_code requests to numbers that never verified per sliding hour in total, across every gateway and identity instance. */
  SEND_CODE_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(5_000)),
  /** Creates a demo merchant on first start and prints its key (defaults on in embedded mode). */
  DEMO_MERCHANT: z.preprocess(emptyAsUndefined, z.enum(["auto", "on", "off"]).default("auto")),
  /** The country of a phone number written without `+` and its country code (docs/api-notes.md, Credentials): ISO 3166 two letters. */
  DEFAULT_PHONE_COUNTRY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, "two letters, the ISO 3166 country code (US, GB, DE)")
      .transform((v) => v.toUpperCase())
      .default("US"),
  ),
  /** Lifetime of a consumer auth token (docs/api-notes.md, Credentials: 24 hours unless configured). */
  AUTH_TOKEN_TTL_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(24 * 365).default(24)),
  /** Where consumers reach the gateway: the base of the hosted page's `url` (unset: the host the merchant called). */
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  /** Comma-separated origins whose own consumer pages may call the consumer routes (CORS); unset: none. */
  CORS_ORIGINS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("")
      .transform((v, ctx) => {
        const origins = v.split(",").map((s) => s.trim().replace(/\/+$/, "")).filter(Boolean);
        // A browser's Origin is scheme://host[:port]: anything else would silently never match.
        const bad = origins.find((o) => !/^https?:\/\/[^/\s]+$/.test(o));
        if (bad !== undefined) {
          ctx.addIssue({ code: "custom", message: `"${bad}" is not an origin (https://shop.example)` });
          return z.NEVER;
        }
        return origins;
      }),
  ),
  /** Twilio credentials for SMS; identity requires them when PROVIDERS=live (checked at its start). */
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  /** The sender: an E.164 number (or a messaging service sid `MG…`) of the Twilio account. */
  TWILIO_FROM_NUMBER: optionalString,
  /**
   * How long a subscriber keeps retrying an event whose handler fails for a reason that may pass
   * (docs/api-notes.md, Convergence with the provider), with exponential backoff; then it is dead-lettered. Fractions allowed (0.5 = 30 min).
   */
  EVENT_RETRY_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(24 * 30).default(24)),
  /** Waits between a webhook's delivery attempts (docs/api-notes.md, Events and webhooks); shorten it to test retries in seconds. */
  WEBHOOK_RETRY_SCHEDULE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("5s,5m,30m,2h,5h,10h,10h")
      .transform((v) => v.split(","))
      .pipe(z.array(durationMs).min(1).max(20)),
  ),
  /** How long one webhook delivery attempt may take before it counts as failed. */
  WEBHOOK_TIMEOUT: z.preprocess(emptyAsUndefined, z.string().default("10s").pipe(durationMs)),
  /** An endpoint whose deliveries failed without a success for this long is disabled. */
  WEBHOOK_DISABLE_AFTER: z.preprocess(emptyAsUndefined, z.string().default("3d").pipe(durationMs)),
  /** Webhook URLs on loopback or private addresses (sandbox only); unset: on with sandbox providers (bin/wiring.ts privateWebhookUrlsAllowed). */
  WEBHOOK_ALLOW_PRIVATE_URLS: optionalBoolean,
  /**
   * Where consumer notices go by email: `smtp://host:port` (`scripts/infra-up.sh` prints the local
   * Mailpit's). Unset: the sandbox outbox with sandbox providers, no email with live ones.
   */
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((v) => URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol), "must be smtp://host:port or smtps://host:port")
      .optional(),
  ),
  /** The sender of consumer notices' email. */
  SMTP_FROM: z.preprocess(emptyAsUndefined, z.string().min(3).max(254).default("Payrail <notices@localhost>")),
  /** Waits between a consumer notice's send attempts; spent: the notice is `failed`. */
  NOTICE_RETRY_SCHEDULE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("10s,1m,5m,15m,30m,1h,2h,4h,8h,10h")
      .transform((v) => v.split(","))
      .pipe(z.array(durationMs).min(1).max(20)),
  ),
  /** Banking days from a debit's settlement until it is available in the merchant's balance (live providers; sandbox: at once). */
  FUNDS_AVAILABLE_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(30).default(2)),
  /**
   * How often each ledger instance tries a payout pass (one runs at a time across replicas); 0
   * turns it off. A merchant gets at most one payout per UTC day whatever the period (docs/decisions/0050-payouts.md).
   */
  PAYOUT_SCHEDULE: z.preprocess(emptyAsUndefined, z.string().default("1d").pipe(durationMs)),
  ...FRAUD_CONFIG,
});

export type Config = z.infer<typeof ConfigSchema>;

/** Parses the environment; throws a readable error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
