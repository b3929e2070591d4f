import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Removes a dashboard user; their sessions end at once. Same permissions as a role change
 * (only owners remove owners; the last owner stays).
 */
export const removeMerchantUserOp = defineOperation(
  "identity.removeMerchantUser",
  z.object({ merchant_id: z.string().min(1).max(64), user_id: z.string().min(1).max(64) }),
  z.object({ id: z.string(), removed: z.literal(true) }),
);
