import { requireUser, verifyLinkTokenOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { verifyLinkToken } from "../../domain/verify-link-token.use-case.ts";
import type { CheckoutDeps } from "./deps.ts";

// For a consumer (the gateway's sandbox routes; a sandbox token's scope is checked) or for payments,
// which serves one and checks the consumer's scope itself: the link token is the proof.
export const verifyLinkTokenHandler = (deps: CheckoutDeps) =>
  handle(verifyLinkTokenOp, (payload, ctx) => {
    if (ctx.principal.kind !== "service") requireUser(ctx.principal);
    return verifyLinkToken(deps, payload.checkout_id, payload.link_token, ctx.principal);
  });
