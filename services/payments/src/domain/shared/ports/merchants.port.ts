import type { Describer } from "../../transfers/company-entry-description.ts";
import type { RequestMeta } from "./checkouts.port.ts";

/** What payments needs to know of a merchant (identity owns merchants). */
export interface MerchantsPort {
  /**
   * What a checkout's first debit fixes of its merchant: its funding source at the transfer
   * provider (null when none is configured) and what describes its debits.
   */
  payee(meta: RequestMeta, merchantId: string): Promise<Describer & { destinationFundingSource: string | null; payoutFundingSource: string | null }>;
  /** The merchant's name, as the mandate text names it. */
  merchantName(meta: RequestMeta, merchantId: string): Promise<string>;
}
