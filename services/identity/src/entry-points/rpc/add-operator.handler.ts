import { addOperatorOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { addOperator } from "../../domain/add-operator.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const addOperatorHandler = (deps: IdentityDeps) =>
  handle(addOperatorOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return addOperator(deps, ctx, payload);
  });
