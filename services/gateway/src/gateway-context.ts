import type { WebContext } from "@payrail/web";
import type { ApiKeyCache } from "./auth/api-key.cache.ts";

/** What the routes share: the web apps' context (the bus, the pages' settings) and the gateway's own small state. */
export interface GatewayContext extends WebContext {
  apiKeyCache: ApiKeyCache;
  adminToken: string | undefined;
  /** Services whose `ping` readiness checks. */
  services: readonly string[];
  /** Test events per merchant per minute: each fans out to up to 16 endpoints. */
  sandboxEventsPerMinute: number;
  /** True once the process drains (SIGTERM): `/readyz` answers 503 while requests are still served. */
  draining?: () => boolean;
}
