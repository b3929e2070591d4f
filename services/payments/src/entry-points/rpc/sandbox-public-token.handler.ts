import { requireMerchantWriter, sandboxPublicTokenOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { sandboxPublicToken } from "../../domain/sandbox-public-token.use-case.ts";
import type { PaymentsDeps } from "./deps.ts";

// Any merchant's api-key will do (API.md §8): it stands in for the provider's own UI.
export const sandboxPublicTokenHandler = (deps: PaymentsDeps) =>
  handle(sandboxPublicTokenOp, (payload, ctx) => {
    requireMerchantWriter(ctx.principal);
    return sandboxPublicToken(deps, payload.link_token);
  });
