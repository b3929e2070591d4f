import { listApiKeysOp, requireMerchantMember } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listApiKeys } from "../../domain/list-api-keys.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or any dashboard user of this merchant.
export const listApiKeysHandler = (deps: IdentityDeps) =>
  handle(listApiKeysOp, (payload, ctx) => {
    requireMerchantMember(ctx.principal, payload.merchant_id);
    return listApiKeys(deps, payload.merchant_id);
  });
