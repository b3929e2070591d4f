import { z } from "zod";
import { MerchantUserView, NewPassword } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Accepts an invitation: sets the user's password (argon2id) and makes the user active; the
 * token is spent. Anyone holding the token may call it; an unknown, spent or expired token is
 * 401 `invitation_invalid`.
 */
export const acceptInvitationOp = defineOperation(
  "identity.acceptInvitation",
  z.object({ token: z.string().min(1).max(128), password: NewPassword }),
  MerchantUserView,
);
