import { CreateMerchantBody, CreateMerchantResponse } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Creates a merchant and its first API key (shown once). Admin only. */
export const createMerchantOp = defineOperation("identity.createMerchant", CreateMerchantBody, CreateMerchantResponse);
