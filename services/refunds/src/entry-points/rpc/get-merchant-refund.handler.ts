import { getMerchantRefundOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getMerchantRefund } from "../../domain/get-merchant-refund.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

export const getMerchantRefundHandler = (deps: RefundsDeps) => handle(getMerchantRefundOp, (payload, ctx) => getMerchantRefund(deps, ctx, payload));
