import { requireAdmin, revokeApiKeyOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { revokeApiKey } from "../../domain/revoke-api-key.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const revokeApiKeyHandler = (deps: IdentityDeps) =>
  handle(revokeApiKeyOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return revokeApiKey(deps, payload.merchant_id, payload.key_prefix);
  });
