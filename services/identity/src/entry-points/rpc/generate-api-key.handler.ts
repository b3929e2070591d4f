import { generateApiKeyOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { generateApiKey } from "../../domain/generate-api-key.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const generateApiKeyHandler = (deps: IdentityDeps) =>
  handle(generateApiKeyOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return generateApiKey(deps, payload.merchant_id, ctx.callId);
  });
