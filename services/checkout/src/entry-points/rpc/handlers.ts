import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import type { CheckoutDeps } from "./deps.ts";
import { createCheckoutHandler } from "./create-checkout.handler.ts";
import { getCheckoutSummaryHandler } from "./get-checkout-summary.handler.ts";
import { generateLinkTokenHandler } from "./generate-link-token.handler.ts";
import { getCheckoutHandler } from "./get-checkout.handler.ts";
import { listCheckoutsHandler } from "./list-checkouts.handler.ts";
import { verifyLinkTokenHandler } from "./verify-link-token.handler.ts";
import { getHostedCheckoutHandler } from "./get-hosted-checkout.handler.ts";
import { getNoticeRecipientHandler } from "./get-notice-recipient.handler.ts";

/**
 * The checkout service's operations: its whole RPC surface in one list. Nobody reports a change
 * of their own here: what payments does reaches the checkout as events (../events).
 */
export function checkoutHandlers(deps: CheckoutDeps): HandlerEntry[] {
  return [
    createCheckoutHandler(deps),
    getCheckoutHandler(deps),
    listCheckoutsHandler(deps),
    generateLinkTokenHandler(deps),
    getCheckoutSummaryHandler(deps),
    verifyLinkTokenHandler(deps),
    getHostedCheckoutHandler(deps),
    getNoticeRecipientHandler(deps),
    handle(pingOp("checkout"), async () => {
      await deps.ping();
      return { service: "checkout", ok: true as const };
    }),
  ];
}
