import { getMerchantOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { RequestMeta } from "../domain/ports/checkouts.port.ts";
import type { MerchantsPort } from "../domain/ports/merchants.port.ts";

/** Identity over RPC, asked as the merchant itself (identity lets a merchant read only itself). */
export class IdentityServiceClient implements MerchantsPort {
  constructor(private readonly transport: Transport) {}

  async destinationFundingSource(meta: RequestMeta, merchantId: string): Promise<string | null> {
    const merchant = await this.transport.call(getMerchantOp, { merchant_id: merchantId }, meta);
    return merchant.destination_funding_source;
  }

  async merchantName(meta: RequestMeta, merchantId: string): Promise<string> {
    // A consumer's request may not read a merchant: payments asks on that merchant's own
    // account, scoped to it, as the hosted page does for the merchant's public name.
    const principal = { kind: "merchant" as const, merchantId, keyPrefix: "payments_mandate", livemode: false };
    const merchant = await this.transport.call(getMerchantOp, { merchant_id: merchantId }, { ...meta, principal });
    return merchant.name;
  }
}
