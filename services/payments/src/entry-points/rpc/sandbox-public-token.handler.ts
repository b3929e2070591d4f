import { requireMerchantWriter, requireUser, sandboxConsumerPublicTokenOp, sandboxPublicTokenOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { sandboxPublicToken } from "../../domain/bank-accounts/sandbox-public-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Any merchant's api-key will do (docs/api-notes.md, The sandbox): it stands in for the provider's own UI.
export const sandboxPublicTokenHandler = (deps: PaymentsDeps) =>
  handle(sandboxPublicTokenOp, (payload, ctx) => {
    requireMerchantWriter(ctx.principal);
    return sandboxPublicToken(deps, payload.link_token);
  });

// A consumer (the portal's re-link) gets one only for a bank-linking token issued to them.
export const sandboxConsumerPublicTokenHandler = (deps: PaymentsDeps) =>
  handle(sandboxConsumerPublicTokenOp, (payload, ctx) => sandboxPublicToken(deps, payload.link_token, requireUser(ctx.principal).userId));
