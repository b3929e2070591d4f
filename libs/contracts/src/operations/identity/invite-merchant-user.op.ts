import { z } from "zod";
import { InviteMerchantUserBody, MerchantUserInvitation } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Invites a dashboard user to a merchant: a user `invited`, and a one-time token (valid 7 days)
 * for the page that sets the password. Inviting a still-invited email again issues a new token.
 * Admin, or an owner/admin of that merchant (only an owner may invite an owner).
 * 409 `merchant_user_exists` when the email already belongs to an active user.
 */
export const inviteMerchantUserOp = defineOperation(
  "identity.inviteMerchantUser",
  InviteMerchantUserBody.extend({ merchant_id: z.string().min(1).max(64) }),
  MerchantUserInvitation.omit({ url: true }),
);
