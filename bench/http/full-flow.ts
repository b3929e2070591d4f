/**
 * The full payment flow of the walk-through (docs/guide/walk-through.md), end to end over HTTP, by `clients`
 * concurrent consumers: create → generate_link_token → send_code → sandbox code → verify_code
 * → create_link_token → sandbox public_token → exchange_public_token → get_processor_token.
 */
import { randomInt } from "node:crypto";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { checkoutBody } from "./checkout-body.ts";
import { percentile } from "./percentile.ts";

export interface FlowResult {
  flows: number;
  flowsPerS: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string | undefined;
  /** The server processes' CPU time over the measured flows, per flow (set by the caller that knows the processes). */
  cpuMsPerFlow?: number;
  /** The same counted until the processes were idle after the row: the work the flows left behind (events, notices) included. */
  cpuMsPerFlowSettled?: number;
}

// Resend limits are per phone: each flow texts its own number (+1 415 NXX-XXXX, "possible" per
// libphonenumber, which is what identity checks). A random start keeps reruns apart.
let phoneSeq = randomInt(0, 8_000_000);
const nextPhone = () => `+1415${2_000_000 + (phoneSeq++ % 8_000_000)}`;

/** `completed` hears the checkout id of each flow that completed (its first charge made). */
export async function runFullFlow(baseUrl: string, apiKey: string, clients: number, durationS: number, completed?: (checkoutId: string) => void): Promise<FlowResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const call = jsonClient(baseUrl, agent);
  const oneFlow = async () => {
    const id = await linkedCheckout(call, apiKey);
    await getProcessorToken(call, apiKey, id);
    completed?.(id);
  };

  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + durationS * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await oneFlow();
        latencies.push(performance.now() - t0);
      } catch (err) {
        errors += 1;
        firstError ??= (err as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { flows: latencies.length, flowsPerS: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, firstError };
}

/**
 * The flow up to its last step: a checkout whose consumer is verified and whose bank account is
 * linked. `body` makes the checkout's body from its merchant_checkout_id (default: the walk-through's).
 */
export async function linkedCheckout(call: JsonCall, apiKey: string, body: (merchantCheckoutId: string) => Record<string, unknown> = checkoutBody): Promise<string> {
  const merchant = { "api-key": apiKey };
  const { id } = await call("POST", "/api/merchants/checkout", merchant, body(`flow-${Date.now()}-${tag++}`));
  const { link_token: linkToken } = await call("GET", `/api/merchants/checkout/${id}/generate_link_token`, merchant);
  const phone = nextPhone();
  await call("POST", "/api/verify_user/send_code", {}, { phone });
  const { code } = await call("GET", `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, merchant);
  const verified = await call("POST", "/api/verify_user/verify_code", {}, { phone, verification_code: code });
  const consumer = { authorization: `Token ${verified.data.auth_token}`, "link-token": linkToken };
  const bank = await call("POST", `/api/consumers/checkout/${id}/create_link_token/`, consumer);
  const picked = await call("POST", "/api/sandbox/public_token", merchant, { link_token: bank.link_token });
  await call("POST", `/api/consumers/checkout/${id}/exchange_public_token/`, consumer, {
    public_token: picked.public_token,
    bankdata_account_id: picked.accounts[0].account_id,
  });
  return id as string;
}

/** The flow's last step: the transfer. */
export function getProcessorToken(call: JsonCall, apiKey: string, checkoutId: string, timeoutMs?: number): Promise<Json> {
  return call("POST", "/api/merchants/payment_preprocess/get_processor_token", { "api-key": apiKey }, { checkout_id: checkoutId }, timeoutMs);
}

let tag = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the walk-through's replies, read field by field
type Json = any;
export type JsonCall = ReturnType<typeof jsonClient>;

/** A JSON call that throws on anything but 200, naming the route and the answer. */
export function jsonClient(baseUrl: string, agent: Agent) {
  const { hostname, port } = new URL(baseUrl);
  return (method: string, path: string, headers: Record<string, string>, body?: unknown, timeoutMs = 30_000): Promise<Json> => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          headers: payload === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            if (res.statusCode !== 200) return reject(new Error(`${method} ${path.replace(/\+\d+/, "+…")}: ${res.statusCode} ${text.slice(0, 200)}`));
            try {
              resolve(JSON.parse(text));
            } catch (err) {
              reject(err as Error);
            }
          });
          res.on("error", reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on("error", reject);
      req.end(payload);
    });
  };
}
