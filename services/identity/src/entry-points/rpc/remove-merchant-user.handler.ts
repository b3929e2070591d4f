import { removeMerchantUserOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { removeMerchantUser } from "../../domain/remove-merchant-user.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or the merchant's owners and admins: the use case checks.
export const removeMerchantUserHandler = (deps: IdentityDeps) => handle(removeMerchantUserOp, (payload, ctx) => removeMerchantUser(deps, ctx, payload));
