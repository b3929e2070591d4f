import { z } from "zod";
import { DashboardRole, MerchantUserView } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Changes a user's role; the user's open sessions end at once (they sign in again under the new
 * role). Admin, or an owner/admin of that merchant; only owners grant or take away `owner`, and
 * the last owner stays (409 `last_owner`).
 */
export const changeMerchantUserRoleOp = defineOperation(
  "identity.changeMerchantUserRole",
  z.object({ merchant_id: z.string().min(1).max(64), user_id: z.string().min(1).max(64), role: DashboardRole }),
  MerchantUserView,
);
