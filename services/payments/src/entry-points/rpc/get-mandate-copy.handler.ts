import { getMandateCopyOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getMandateCopy } from "../../domain/mandates/get-mandate-copy.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Internal: the notices service asks it for the words of the consumer's authorization copy.
export const getMandateCopyHandler = (deps: PaymentsDeps) =>
  handle(getMandateCopyOp, (payload, ctx) => getMandateCopy(deps, { requestId: ctx.requestId, principal: ctx.principal }, payload.mandate_id));
