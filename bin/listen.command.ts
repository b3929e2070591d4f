import type { WebhookEvent } from "@payrail/contracts";
import { newSigningSecret, webhookHeaders } from "@payrail/webhooks/signing";
import { InvalidArgumentError, type Command } from "commander";
import { whyFetchFailed } from "./fetch-failure.ts";
import { payrailApiKey, payrailUrl } from "./payrail-target.ts";

export interface ListenOptions {
  /** The Payrail API, e.g. http://127.0.0.1:8080. */
  api: string;
  apiKey: string;
  forwardTo: string;
  /** `*`, a type or `group.*`: which events to forward. */
  events?: string | undefined;
  intervalMs?: number;
  /** Signs with this secret instead of a new one (to keep a receiver's secret across runs). */
  secret?: string | undefined;
  /**
   * Waits before each new try of a forward the receiver did not answer (down, refused, timed
   * out); after the last, that event is skipped. An HTTP answer, any status, is never retried.
   */
  retryDelaysMs?: readonly number[];
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** 1, 2, 4, 8, 16 s: about half a minute to restart a receiver before an event is skipped. */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];

/** Ids remembered to tell new events from seen ones; far more than one poll brings. */
const REMEMBERED = 5_000;

/**
 * `payrail listen --forward-to URL`: like `stripe listen`, follows the merchant's events API
 * with an api-key and forwards each new event to a local URL, signed as Standard Webhooks
 * deliveries are, with a secret it prints (so the receiver's verification code is the same one
 * as in production). Events from before the start are not forwarded. Resolves when `signal` aborts.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const secret = options.secret ?? newSigningSecret();
  const seen = new Set<string>();
  const query = options.events && options.events !== "*" ? `&type=${encodeURIComponent(options.events)}` : "";
  const page = async (after?: string) => {
    const url = `${options.api}/api/merchants/events?limit=100${query}${after ? `&starting_after=${after}` : ""}`;
    const reply = await fetch(url, { headers: { "api-key": options.apiKey }, ...(options.signal ? { signal: options.signal } : {}) }).catch((err: unknown) => {
      if (options.signal?.aborted) throw err;
      throw new Error(`could not reach the events API at ${options.api}: ${whyFetchFailed(err)}`);
    });
    if (!reply.ok) throw new Error(`GET ${options.api}/api/merchants/events answered ${reply.status}: ${await reply.text()}`);
    return (await reply.json()) as { data: WebhookEvent[]; has_more: boolean };
  };
  /** The events not seen yet, oldest first: pages back until one it has seen (or the start). */
  const fresh = async () => {
    const found: WebhookEvent[] = [];
    for (let after: string | undefined, more = true; more; ) {
      const { data, has_more } = await page(after);
      const unseen = data.filter((e) => !seen.has(e.id));
      found.push(...unseen);
      more = has_more && unseen.length === data.length && data.length > 0;
      after = data.at(-1)?.id;
    }
    return found.reverse();
  };
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
  };

  for (const event of (await page()).data) remember(event.id);
  log(`Ready! Forwarding events to ${options.forwardTo}`);
  log(`Your webhook signing secret is ${secret} (^C to quit)`);
  while (!options.signal?.aborted) {
    try {
      for (const event of await fresh()) {
        remember(event.id);
        log(`--> ${event.type} [${event.id}]`);
        await forward(event, secret, options, log);
      }
    } catch (err) {
      if (options.signal?.aborted) break;
      log(`${(err as Error).message}; retrying`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
  }
}

/**
 * POSTs one event to the receiver, signed; a receiver that does not answer gets the same
 * delivery again (same webhook-id, fresh timestamp and signature) after each of the retry delays.
 */
async function forward(event: WebhookEvent, secret: string, options: ListenOptions, log: (line: string) => void): Promise<void> {
  const body = JSON.stringify(event);
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    const started = Date.now();
    try {
      const reply = await fetch(options.forwardTo, {
        method: "POST",
        headers: { "content-type": "application/json", ...webhookHeaders([secret], event.id, new Date(), body) },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      log(`<-- [${reply.status}] POST ${options.forwardTo} (${Date.now() - started} ms)`);
      return;
    } catch (err) {
      const why = `<-- POST ${options.forwardTo} failed: ${whyFetchFailed(err)}`;
      const delay = delays[attempt];
      if (delay === undefined || options.signal?.aborted) {
        log(`${why}; gave up on ${event.id} after ${attempt + 1} tries`);
        return;
      }
      log(`${why}; retrying in ${delay >= 1_000 ? `${delay / 1_000} s` : `${delay} ms`} (try ${attempt + 2} of ${delays.length + 1})`);
      await sleep(delay, options.signal);
    }
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** `payrail listen`: its options, checked by commander before anything is fetched. */
export function defineCommand(command: Command): void {
  command
    .requiredOption("--forward-to <url>", "where to POST each event", (value: string) => {
      if (!URL.canParse(value)) throw new InvalidArgumentError("not a URL");
      return value;
    })
    .option("--api-key <key>", "the merchant's api-key (default: PAYRAIL_API_KEY, else the demo merchant's in DATA_DIR)")
    .option("--api <url>", "the Payrail API (default: PAYRAIL_URL, else PAYRAIL_API, else http://127.0.0.1:$PORT)")
    .option("--events <type>", "`*`, a type or `group.*`", "*")
    .option("--secret <whsec>", "sign with this secret instead of a new one")
    .action(async (o: { forwardTo: string; apiKey?: string; api?: string; events: string; secret?: string }) => {
      const apiKey = o.apiKey ?? (await payrailApiKey());
      if (!apiKey) command.error("listen needs --api-key <key> (or PAYRAIL_API_KEY, or the demo merchant of a `npm start` in DATA_DIR)", { exitCode: 2 });
      const api = o.api?.replace(/\/+$/, "") ?? payrailUrl();
      const controller = new AbortController();
      process.once("SIGINT", () => controller.abort());
      process.once("SIGTERM", () => controller.abort());
      await listen({ api, apiKey: apiKey!, forwardTo: o.forwardTo, events: o.events, secret: o.secret, signal: controller.signal });
    });
}
