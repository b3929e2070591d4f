import { listCheckoutsOp, requireMerchant } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listCheckouts } from "../../domain/list-checkouts.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

export const listCheckoutsHandler = (deps: CheckoutDeps) =>
  handle(listCheckoutsOp, (payload, ctx) => listCheckouts(deps, requireMerchant(ctx.principal), payload));
