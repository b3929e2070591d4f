import { listRefundsOp, requireUser } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listRefunds } from "../../domain/list-refunds.use-case.ts";
import type { RefundsDeps } from "./deps.ts";

export const listRefundsHandler = (deps: RefundsDeps) =>
  handle(listRefundsOp, (payload, ctx) => listRefunds(deps, requireUser(ctx.principal), payload));
