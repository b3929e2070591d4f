import { listMerchantUsersOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listMerchantUsers } from "../../domain/list-merchant-users.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or any user of the merchant.
export const listMerchantUsersHandler = (deps: IdentityDeps) => handle(listMerchantUsersOp, (payload, ctx) => listMerchantUsers(deps, ctx.principal, payload));
