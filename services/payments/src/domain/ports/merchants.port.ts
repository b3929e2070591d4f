import type { RequestMeta } from "./checkouts.port.ts";

/** What payments needs to know of a merchant (identity owns merchants). */
export interface MerchantsPort {
  /** The merchant's funding source at the transfer provider, or null when none is configured. */
  destinationFundingSource(meta: RequestMeta, merchantId: string): Promise<string | null>;
}
