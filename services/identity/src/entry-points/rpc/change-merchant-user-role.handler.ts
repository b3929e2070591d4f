import { changeMerchantUserRoleOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { changeMerchantUserRole } from "../../domain/change-merchant-user-role.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or the merchant's owners and admins: the use case checks.
export const changeMerchantUserRoleHandler = (deps: IdentityDeps) => handle(changeMerchantUserRoleOp, (payload, ctx) => changeMerchantUserRole(deps, ctx, payload));
