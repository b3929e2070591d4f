import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";
import { CheckoutSummary } from "./verify-link-token.op.ts";

/**
 * The facts payments needs to move money for a checkout: to its merchant (any other merchant
 * gets 404 `checkout_not_found`) or to another service on its own account.
 */
export const getCheckoutSummaryOp = defineOperation(
  "checkout.getCheckoutSummary",
  z.object({ checkout_id: z.string().min(1).max(64) }),
  CheckoutSummary,
  { reads: true },
);
