/**
 * One row of load: autocannon against one URL, with a discarded warm-up first. Each request
 * of the merchant rows is built per call: Get picks a random seeded id, Create posts a new
 * merchant_checkout_id.
 */
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { checkoutBody } from "./checkout-body.ts";
import { percentile } from "./percentile.ts";

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
}

/** What a row measured; latencies (autocannon's response times, ms) are of 2xx responses. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx responses plus connection errors and timeouts. */
  errors: number;
  /** Responses of any status. */
  requests: number;
}

export type RequestShape = Pick<autocannon.Options, "method" | "headers" | "requests">;

/** Longest a row waits, after its warm-up, for every connection to have been answered once. */
const CONNECTING_LIMIT_S = 30;

/**
 * One autocannon run of warm-up and row together, so that the measured part keeps the warm-up's
 * connections: a new run opens new ones, and a server at saturation accepts one connection per
 * turn of its event loop (libuv accepts one and waits for the next poll), so the first requests
 * of 100 fresh connections wait up to 100 turns, over a second at Payrail's Create, and a short
 * row would measure that instead of the load. The row starts once the warm-up's time has passed
 * and every connection has had an answer (within `CONNECTING_LIMIT_S`), and responses count from
 * then until the run has stopped, whenever their request was sent. `measuring` is called when
 * the row starts.
 */
export async function runLoad(url: string, shape: RequestShape, settings: LoadSettings, measuring?: () => void): Promise<LoadResult> {
  const row = { latencies: [] as number[], errors: 0, requests: 0, from: Number.NaN };
  const answered = new Set<unknown>();
  const options = {
    url,
    connections: settings.connections,
    ...shape,
    duration: settings.warmupS + CONNECTING_LIMIT_S + settings.durationS,
    // autocannon checks for its stop once a sample: every 100 ms, so the row ends on time.
    sampleInt: 100,
  };
  // With a callback autocannon returns its instance, whose events and stop() the row needs.
  let instance!: autocannon.Instance;
  const done = new Promise<void>((resolve, reject) => {
    instance = autocannon(options, (err) => (err ? reject(err) : resolve()));
  });
  const begin = performance.now();
  const startRow = (now: number, connecting: boolean) => {
    if (!Number.isNaN(row.from) || now - begin < settings.warmupS * 1000) return;
    if (connecting && answered.size < settings.connections) return;
    clearTimeout(limit);
    row.from = now;
    measuring?.();
    setTimeout(() => instance.stop(), settings.durationS * 1000).unref();
  };
  const limit = setTimeout(() => startRow(performance.now(), false), (settings.warmupS + CONNECTING_LIMIT_S) * 1000);
  instance.on("response", (client, statusCode, _bytes, responseTime) => {
    if (Number.isNaN(row.from)) {
      answered.add(client);
      return startRow(performance.now(), true);
    }
    row.requests += 1;
    if (statusCode >= 200 && statusCode < 300) row.latencies.push(responseTime);
    else row.errors += 1;
  });
  // Connection errors and timeouts: autocannon reports both as reqError.
  instance.on("reqError", () => {
    if (!Number.isNaN(row.from)) row.errors += 1;
  });
  try {
    await done;
  } finally {
    clearTimeout(limit);
  }
  const seconds = (performance.now() - row.from) / 1000;
  row.latencies.sort((a, b) => a - b);
  // No 2xx, no latency: NaN (shown "n/a") rather than 0, which would pass a target.
  return { rps: row.requests / seconds, p50: percentile(row.latencies, 50), p99: percentile(row.latencies, 99), errors: row.errors, requests: row.requests };
}

/** GET of one fixed path (the baseline, the ceiling, the List row). */
export function getPath(path: string, headers: Record<string, string> = {}): RequestShape {
  return { method: "GET", headers, requests: [{ method: "GET", path }] };
}

/** The Get Checkout path of a random seeded id. */
export function randomCheckoutPath(ids: readonly string[]): () => string {
  if (ids.length === 0) throw new Error("no seeded ids to get");
  return () => `/api/merchants/checkout/${ids[Math.floor(Math.random() * ids.length)]}`;
}

/** Get Checkout of a random seeded id, per request. */
export function getCheckout(apiKey: string, ids: readonly string[]): RequestShape {
  const nextPath = randomCheckoutPath(ids);
  return {
    method: "GET",
    headers: { "api-key": apiKey },
    requests: [{ setupRequest: (request) => ({ ...request, method: "GET", path: nextPath() }) }],
  };
}

const ID_MARK = "@@merchant_checkout_id@@";

/** Create Checkout bodies, each with a merchant_checkout_id never used before (`tag` keeps rows apart). */
export function createBodies(tag: string): () => string {
  // The body is serialised once; only the id changes per request.
  const [head, tail] = JSON.stringify(checkoutBody(ID_MARK)).split(ID_MARK) as [string, string];
  let n = 0;
  return () => `${head}${tag}-${n++}${tail}`;
}

/** Create Checkout with a merchant_checkout_id never used before (`tag` keeps rows apart). */
export function createCheckout(apiKey: string, tag: string): RequestShape {
  const nextBody = createBodies(tag);
  return {
    method: "POST",
    headers: { "api-key": apiKey, "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => ({ ...request, method: "POST", path: "/api/merchants/checkout", body: nextBody() }),
      },
    ],
  };
}
