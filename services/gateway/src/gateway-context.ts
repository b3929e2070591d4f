import type { Transport } from "@payrail/messaging";
import type { ApiKeyCache } from "./auth/api-key.cache.ts";

/** What the routes share: the bus to the services and the gateway's own small state. */
export interface GatewayContext {
  transport: Transport;
  apiKeyCache: ApiKeyCache;
  adminToken: string | undefined;
  /** Services whose `ping` readiness checks. */
  services: readonly string[];
  /** Sandbox providers: the sandbox routes are registered. */
  sandbox: boolean;
  /** DEFAULT_PHONE_COUNTRY: the hosted page's hint names it (identity reads numbers with it). */
  defaultPhoneCountry: string;
  /** PUBLIC_URL: where consumers reach this gateway (hosted page links); unset, the request's own host. */
  publicUrl: string | undefined;
  /** Cookies only over https even when a request arrives over http (NODE_ENV=production, behind a TLS proxy). */
  secureCookies: boolean;
  /** Test events per merchant per minute: each fans out to up to 16 endpoints. */
  sandboxEventsPerMinute: number;
  /** True once the process drains (SIGTERM): `/readyz` answers 503 while requests are still served. */
  draining?: () => boolean;
}
