import type { Transport } from "@payrail/messaging";

/**
 * What the web apps (dashboard, portal, hosted page) and the API's routes share from the gateway
 * process that registers them: the bus to the services and the settings pages depend on. The
 * gateway's own context extends it; an app sees no more than this.
 */
export interface WebContext {
  transport: Transport;
  /** Sandbox providers: the sandbox pages and buttons exist. */
  sandbox: boolean;
  /** DEFAULT_PHONE_COUNTRY: the hosted page's hint names it (identity reads numbers with it). */
  defaultPhoneCountry: string;
  /** PUBLIC_URL: where consumers reach this gateway (hosted page links); unset, the request's own host. */
  publicUrl: string | undefined;
  /** Cookies only over https even when a request arrives over http (NODE_ENV=production, behind a TLS proxy). */
  secureCookies: boolean;
  /** The gateway's API-key cache: a key revoked from a page is forgotten in it at once. */
  apiKeyCache: { forget(merchantId: string, keyPrefix: string): void };
}
