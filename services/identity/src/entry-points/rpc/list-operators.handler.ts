import { listOperatorsOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listOperators } from "../../domain/list-operators.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const listOperatorsHandler = (deps: IdentityDeps) =>
  handle(listOperatorsOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return listOperators(deps, payload.merchant_id);
  });
