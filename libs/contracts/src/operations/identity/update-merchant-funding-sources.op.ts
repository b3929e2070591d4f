import { z } from "zod";
import { MerchantFundingSourcesBody, MerchantView } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Changes a merchant's funding sources at the transfer provider (where its debits land, and its
 * bank, where payouts go) in one conditional write; answers the merchant as it now is. Admin only;
 * an unknown merchant is 404 `merchant_not_found`.
 */
export const updateMerchantFundingSourcesOp = defineOperation(
  "identity.updateMerchantFundingSources",
  MerchantFundingSourcesBody.extend({ merchant_id: z.string().min(1).max(64) }),
  MerchantView,
);
