import { createMerchantOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { createMerchant } from "../../domain/create-merchant.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const createMerchantHandler = (deps: IdentityDeps) =>
  handle(createMerchantOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return createMerchant(deps, ctx, payload, ctx.callId);
  });
