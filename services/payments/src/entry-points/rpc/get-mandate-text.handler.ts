import { getMandateTextOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getMandateText } from "../../domain/mandates/get-mandate-text.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getMandateTextHandler = (deps: PaymentsDeps) =>
  handle(getMandateTextOp, (payload, ctx) => getMandateText(deps, ctx, requireUser(ctx.principal), payload));
