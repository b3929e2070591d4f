import { requireMerchantManager, revokeApiKeyOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { revokeApiKey } from "../../domain/revoke-api-key.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or the owners and admins of this merchant in the dashboard.
export const revokeApiKeyHandler = (deps: IdentityDeps) =>
  handle(revokeApiKeyOp, (payload, ctx) => {
    requireMerchantManager(ctx.principal, payload.merchant_id);
    return revokeApiKey(deps, ctx, payload.merchant_id, payload.key_prefix);
  });
