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
}
