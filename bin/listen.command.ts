import type { WebhookEvent } from "@payrail/contracts";
import { newSigningSecret, webhookHeaders } from "@payrail/webhooks";
import { InvalidArgumentError, type Command } from "commander";

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
  signal?: AbortSignal;
  log?: (line: string) => void;
}

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
    const reply = await fetch(url, { headers: { "api-key": options.apiKey }, ...(options.signal ? { signal: options.signal } : {}) });
    if (!reply.ok) throw new Error(`GET /api/merchants/events answered ${reply.status}: ${await reply.text()}`);
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
        const body = JSON.stringify(event);
        log(`--> ${event.type} [${event.id}]`);
        const started = Date.now();
        const reply = await fetch(options.forwardTo, {
          method: "POST",
          headers: { "content-type": "application/json", ...webhookHeaders([secret], event.id, new Date(), body) },
          body,
          signal: AbortSignal.timeout(10_000),
        }).catch((err: unknown) => err as Error);
        log(reply instanceof Error ? `<-- error: ${reply.message}` : `<-- [${reply.status}] POST ${options.forwardTo} (${Date.now() - started} ms)`);
      }
    } catch (err) {
      if (options.signal?.aborted) break;
      log(`events API: ${(err as Error).message}; retrying`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
  }
}

/** Parses `listen`'s flags; the api-key may come from PAYRAIL_API_KEY, the API from PAYRAIL_API. */
/** `payrail listen`: its options, checked by commander before anything is fetched. */
export function registerListenCommand(program: Command): void {
  program
    .command("listen")
    .description("forward the merchant's new events to a local URL, signed as Standard Webhooks deliveries (like stripe listen)")
    .requiredOption("--forward-to <url>", "where to POST each event", (value: string) => {
      if (!URL.canParse(value)) throw new InvalidArgumentError("not a URL");
      return value;
    })
    .option("--api-key <key>", "the merchant's api-key (default: PAYRAIL_API_KEY)")
    .option("--api <url>", "the Payrail API (default: PAYRAIL_API, else http://127.0.0.1:$PORT)")
    .option("--events <type>", "`*`, a type or `group.*`", "*")
    .option("--secret <whsec>", "sign with this secret instead of a new one")
    .action(async (o: { forwardTo: string; apiKey?: string; api?: string; events: string; secret?: string }) => {
      const apiKey = o.apiKey ?? process.env["PAYRAIL_API_KEY"];
      if (!apiKey) program.error("listen needs --api-key <key> (or PAYRAIL_API_KEY)", { exitCode: 2 });
      const api = (o.api ?? process.env["PAYRAIL_API"] ?? `http://127.0.0.1:${process.env["PORT"] ?? 8080}`).replace(/\/$/, "");
      const controller = new AbortController();
      process.once("SIGINT", () => controller.abort());
      process.once("SIGTERM", () => controller.abort());
      await listen({ api, apiKey: apiKey!, forwardTo: o.forwardTo, events: o.events, secret: o.secret, signal: controller.signal });
    });
}
