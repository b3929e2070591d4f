import { getMerchantOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { getMerchant } from "../../domain/get-merchant.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const getMerchantHandler = (deps: IdentityDeps) =>
  handle(getMerchantOp, (payload, ctx) => getMerchant(deps, ctx.principal, payload.merchant_id));
