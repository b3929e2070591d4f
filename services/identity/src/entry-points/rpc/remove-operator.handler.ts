import { removeOperatorOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { removeOperator } from "../../domain/remove-operator.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const removeOperatorHandler = (deps: IdentityDeps) =>
  handle(removeOperatorOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return removeOperator(deps, ctx, payload);
  });
