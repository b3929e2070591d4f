import { getMerchantOp, onOwnAccount } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { RequestMeta } from "../domain/shared/ports/checkouts.port.ts";
import type { MerchantsPort } from "../domain/shared/ports/merchants.port.ts";

/** Identity over RPC, asked on payments' own account for the merchant a record of payments names. */
export class IdentityServiceClient implements MerchantsPort {
  constructor(private readonly transport: Transport) {}

  async payee(meta: RequestMeta, merchantId: string) {
    const merchant = await this.transport.call(getMerchantOp, { merchant_id: merchantId }, onOwnAccount("payments", meta));
    return {
      destinationFundingSource: merchant.destination_funding_source,
      payoutFundingSource: merchant.payout_funding_source,
      name: merchant.name,
      statementDescriptor: merchant.statement_descriptor,
      defaultTransactionPurpose: merchant.default_transaction_purpose,
    };
  }

  async merchantName(meta: RequestMeta, merchantId: string): Promise<string> {
    return (await this.transport.call(getMerchantOp, { merchant_id: merchantId }, onOwnAccount("payments", meta))).name;
  }
}
