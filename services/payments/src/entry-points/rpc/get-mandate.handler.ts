import { getMandateOp, requireMerchant } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getMandate } from "../../domain/mandates/get-mandate.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

export const getMandateHandler = (deps: PaymentsDeps) =>
  handle(getMandateOp, (payload, ctx) => getMandate(deps, requireMerchant(ctx.principal), payload.mandate_id));
