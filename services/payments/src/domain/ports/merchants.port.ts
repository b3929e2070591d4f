import type { RequestMeta } from "./checkouts.port.ts";

/** What payments needs to know of a merchant (identity owns merchants). */
export interface MerchantsPort {
  /** The merchant's funding source at the transfer provider, or null when none is configured. */
  destinationFundingSource(meta: RequestMeta, merchantId: string): Promise<string | null>;
  /** The merchant's name, as the mandate text names it (asked on the merchant's own account). */
  merchantName(meta: RequestMeta, merchantId: string): Promise<string>;
}
