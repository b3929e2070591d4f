import { listMerchantRefundsOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listMerchantRefunds } from "../../domain/list-merchant-refunds.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

export const listMerchantRefundsHandler = (deps: RefundsDeps) =>
  handle(listMerchantRefundsOp, (payload, ctx) => listMerchantRefunds(deps, ctx.principal, payload));
