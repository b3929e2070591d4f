import { inviteMerchantUserOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { inviteMerchantUser } from "../../domain/invite-merchant-user.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or the merchant's owners and admins: the use case checks.
export const inviteMerchantUserHandler = (deps: IdentityDeps) => handle(inviteMerchantUserOp, (payload, ctx) => inviteMerchantUser(deps, ctx, payload));
