import { generateApiKeyOp, requireMerchantManager } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { generateApiKey } from "../../domain/generate-api-key.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Admin, or the owners and admins of this merchant in the dashboard.
export const generateApiKeyHandler = (deps: IdentityDeps) =>
  handle(generateApiKeyOp, (payload, ctx) => {
    requireMerchantManager(ctx.principal, payload.merchant_id);
    return generateApiKey(deps, ctx, payload.merchant_id, ctx.callId);
  });
