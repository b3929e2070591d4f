import { isOperatorOp, requireService } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { isOperator } from "../../domain/is-operator.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

// Internal: refunds asks it before letting a user's token act on a merchant's refund.
export const isOperatorHandler = (deps: IdentityDeps) =>
  handle(isOperatorOp, (payload, ctx) => {
    requireService(ctx.principal);
    return isOperator(deps, payload);
  });
