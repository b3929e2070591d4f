import { createPayrailClient } from "@payrail/client";
import type { WebhookEvent } from "@payrail/contracts";
import { InvalidArgumentError, type Command } from "commander";
import { stepper, type Log } from "./demo/sandbox-steps.ts";
import { payrailApiKey, payrailUrl } from "./payrail-target.ts";
import { whyFetchFailed } from "./fetch-failure.ts";
import { TRIGGER_RECIPES, type Triggered } from "./trigger/trigger-recipes.ts";

export interface TriggerOptions {
  /** The Payrail API, e.g. http://127.0.0.1:8080. */
  api: string;
  apiKey: string;
  /** An event type of TRIGGER_RECIPES. */
  type: string;
  log?: Log;
  /** How long to wait for the event to reach the events API (the webhooks service files it). */
  timeoutMs?: number;
}

/**
 * `payrail trigger <event>`: like `stripe trigger`, makes the event happen through the sandbox
 * flow (a merchant's and a consumer's real calls, the bank simulated), then waits until the
 * merchant's events API shows it, and answers that event. The merchant's endpoints and
 * `payrail listen` receive it as any other event, with objects that exist and link up.
 */
export async function trigger(options: TriggerOptions): Promise<{ event: WebhookEvent; triggered: Triggered }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const recipe = TRIGGER_RECIPES[options.type];
  if (!recipe) throw new Error(`cannot trigger ${options.type}; one of: ${Object.keys(TRIGGER_RECIPES).join(", ")}`);
  const merchant = createPayrailClient(options.api, { apiKey: options.apiKey });
  log(`Triggering ${options.type}: ${recipe.does}`);
  const triggered = await recipe.run({ baseUrl: options.api, merchant, step: stepper(log) });

  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const page = await merchant.GET("/api/merchants/events", { params: { query: { type: options.type, limit: 100 } } });
    if (!page.data) throw new Error(`GET /api/merchants/events answered ${page.response.status}: ${JSON.stringify(page.error)}`);
    const event = (page.data.data as WebhookEvent[]).find((e) => JSON.stringify(e.data.object).includes(`"${triggered.key}"`));
    if (event) {
      log(`Triggered ${event.type} ${event.id} (object ${triggered.key}, checkout ${triggered.checkoutId})`);
      return { event, triggered };
    }
    if (Date.now() > deadline) {
      throw new Error(`the flow ran (checkout ${triggered.checkoutId}) but no ${options.type} event about ${triggered.key} reached the events API: is the webhooks service running?`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `payrail trigger`: the event is checked by commander, before any call is made. */
export function defineCommand(command: Command): void {
  const events = Object.entries(TRIGGER_RECIPES).map(([type, r]) => `  ${type.padEnd(30)} ${r.does}`);
  command
    .argument("<event>", "the event type (listed below)", (value: string) => {
      if (!Object.hasOwn(TRIGGER_RECIPES, value)) throw new InvalidArgumentError(`not one of the events below (run with --help)`);
      return value;
    })
    .option("--api-key <key>", "the merchant's sandbox api-key (default: PAYRAIL_API_KEY, else the demo merchant's in DATA_DIR)")
    .option("--api <url>", "the Payrail API (default: PAYRAIL_URL, else PAYRAIL_API, else http://127.0.0.1:$PORT)")
    .addHelpText("after", `\nEvents:\n${events.join("\n")}\n\nA running sandbox Payrail is needed (npm start); each run makes new objects.`)
    .action(async (type: string, o: { apiKey?: string; api?: string }) => {
      const apiKey = o.apiKey ?? (await payrailApiKey());
      if (!apiKey) throw new Error(`no --api-key, no PAYRAIL_API_KEY and no demo merchant in ${process.env["DATA_DIR"] || ".data"}: start Payrail with \`npm start\` first`);
      const api = (o.api ?? payrailUrl()).replace(/\/+$/, "");
      await trigger({ api, apiKey, type }).catch((err: Error) => {
        // fetch's own "fetch failed" names neither the URL nor the reason.
        if (err.message !== "fetch failed") throw err;
        throw new Error(`cannot reach Payrail at ${api}: ${whyFetchFailed(err)}; start it with \`npm start\`, or pass --api`);
      });
    });
}
