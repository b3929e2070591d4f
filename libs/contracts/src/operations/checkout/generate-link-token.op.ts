import { CheckoutIdParam, MerchantLinkTokenResponse } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Generate Link Token (spec 3): a merchant link token bound to one checkout, valid 24 hours. */
export const generateLinkTokenOp = defineOperation(
  "checkout.generateLinkToken",
  CheckoutIdParam,
  MerchantLinkTokenResponse,
);
