import { z } from "zod";
import { MerchantUserView } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** A merchant's dashboard users, oldest first (at most 100). Admin, or any user of that merchant. */
export const listMerchantUsersOp = defineOperation(
  "identity.listMerchantUsers",
  z.object({ merchant_id: z.string().min(1).max(64) }),
  z.object({ data: z.array(MerchantUserView) }),
);
