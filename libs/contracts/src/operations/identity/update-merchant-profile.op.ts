import { MerchantView } from "../../http/admin.schema.ts";
import { MerchantProfileBody } from "../../http/merchant-profile.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Changes the calling merchant's profile (support contacts, statement descriptor, default
 * transaction purpose) in one conditional write; answers the merchant as it now is. A dashboard
 * viewer may not.
 */
export const updateMerchantProfileOp = defineOperation("identity.updateMerchantProfile", MerchantProfileBody, MerchantView);
