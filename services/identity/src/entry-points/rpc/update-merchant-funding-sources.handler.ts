import { requireAdmin, updateMerchantFundingSourcesOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { updateMerchantFundingSources } from "../../domain/update-merchant-funding-sources.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const updateMerchantFundingSourcesHandler = (deps: IdentityDeps) =>
  handle(updateMerchantFundingSourcesOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return updateMerchantFundingSources(deps, ctx, payload);
  });
