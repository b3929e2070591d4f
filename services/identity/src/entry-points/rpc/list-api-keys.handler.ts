import { listApiKeysOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listApiKeys } from "../../domain/list-api-keys.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const listApiKeysHandler = (deps: IdentityDeps) =>
  handle(listApiKeysOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return listApiKeys(deps, payload.merchant_id);
  });
