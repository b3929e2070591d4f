import { requireUser, verifyLinkTokenOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { verifyLinkToken } from "../../domain/verify-link-token.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// On behalf of a consumer (payments forwards the caller): the link token is the proof.
export const verifyLinkTokenHandler = (deps: CheckoutDeps) =>
  handle(verifyLinkTokenOp, (payload, ctx) => {
    requireUser(ctx.principal);
    return verifyLinkToken(deps, payload.checkout_id, payload.link_token, ctx.principal);
  });
