import { generateLinkTokenOp, requireMerchantWriter } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { generateLinkToken } from "../../domain/generate-link-token.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

export const generateLinkTokenHandler = (deps: CheckoutDeps) =>
  handle(generateLinkTokenOp, (payload, ctx) =>
    generateLinkToken(deps, { principal: requireMerchantWriter(ctx.principal), clientIp: ctx.clientIp }, payload.checkout_id),
  );
