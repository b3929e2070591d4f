import type { Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import { buildApp } from "./app.ts";

export { buildApp, BODY_LIMIT_BYTES, type GatewayOptions } from "./app.ts";
/** The documented Create Checkout body (what `/docs` prefills and the walk-through sends). */
export { CREATE_CHECKOUT_EXAMPLE } from "./openapi/examples.ts";
import type { GatewayOptions } from "./app.ts";

export interface GatewayServiceDeps {
  transport: Transport;
  logger: Logger;
  host: string;
  port: number;
  adminToken?: string | undefined;
  cliAdminToken?: string | undefined;
  apiKeyCacheMs: number;
  rateLimitPerMinute: number;
  authFailuresPerMinute?: number | undefined;
  sharedLimits?: boolean | undefined;
  trustProxy?: GatewayOptions["trustProxy"];
  services: readonly string[];
  sandbox: boolean;
  publicUrl?: string | undefined;
  defaultPhoneCountry?: string | undefined;
  corsOrigins?: readonly string[] | undefined;
  secureCookies?: boolean | undefined;
  sandboxEventsPerMinute?: number | undefined;
  processMetrics?: GatewayOptions["processMetrics"];
  metricsOnApiPort?: boolean | undefined;
  /** DRAIN_DELAY_MS: how long `stop` keeps serving new requests after `/readyz` turned 503. */
  drainDelayMs?: number | undefined;
}

/**
 * Starts the HTTP gateway. `stop` drains it: `/readyz` answers 503 at once, new requests are
 * still served for `drainDelayMs` (a load balancer polling `/readyz` stops sending meanwhile),
 * then the listener closes and the requests in flight finish.
 */
export async function start(deps: GatewayServiceDeps): Promise<{ name: string; url: string; stop(): Promise<void> }> {
  let draining = false;
  let closing = false;
  const app = await buildApp({ ...deps, draining: () => draining });
  // Once closing, every answer ends its connection: a client's (a load balancer's) keep-alive
  // connection would otherwise hold the close open after its last request, idle but never closed.
  app.addHook("onSend", (_request, reply, _payload, done) => {
    if (closing) reply.header("connection", "close");
    done();
  });
  const url = await app.listen({ host: deps.host, port: deps.port });
  const stop = async () => {
    draining = true;
    if (deps.drainDelayMs) await new Promise((resolve) => setTimeout(resolve, deps.drainDelayMs));
    closing = true;
    await app.close();
  };
  return { name: "gateway", url, stop };
}
