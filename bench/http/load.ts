/**
 * One row of load: autocannon against one URL, with a discarded warm-up first. Each request
 * of the merchant rows is built per call: Get picks a random seeded id, Create posts a new
 * merchant_checkout_id.
 */
import autocannon from "autocannon";
import { checkoutBody } from "./checkout-body.ts";

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
}

/** What a row measured; latencies are of 2xx responses, as autocannon records them. */
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

/** `measuring` is called when the warm-up ends and the measured part starts. */
export async function runLoad(url: string, shape: RequestShape, settings: LoadSettings, measuring?: () => void): Promise<LoadResult> {
  const common = { url, connections: settings.connections, ...shape };
  if (settings.warmupS > 0) await autocannon({ ...common, duration: settings.warmupS });
  measuring?.();
  const result = await autocannon({ ...common, duration: settings.durationS });
  // No 2xx, no latency: NaN (shown "n/a") rather than autocannon's 0, which would pass a target.
  const none = result["2xx"] === 0;
  return {
    rps: result.requests.total / result.duration,
    p50: none ? NaN : result.latency.p50,
    p99: none ? NaN : result.latency.p99,
    errors: result.non2xx + result.errors,
    requests: result.requests.total,
  };
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
