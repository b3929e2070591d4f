import { z } from "zod";
import { CheckoutStatus } from "../../http/checkout.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Amounts as decimal strings with two fraction digits (`"107.50"`), for display. */
const DisplayAmounts = z.object({
  total: z.string(),
  subtotal: z.string(),
  tax: z.string(),
  shipping: z.string(),
  discount_total: z.string().nullable(),
  currency: z.string(),
});

/**
 * What the consumer's hosted page shows and needs of a checkout: the order (amounts, items,
 * plan), where it ends (the merchant's redirect URLs) and its state. Nothing the merchant keeps
 * for itself (addresses, its own ids, transfer details).
 */
export const HostedCheckout = z.object({
  id: z.string(),
  merchant_id: z.string(),
  status: CheckoutStatus,
  amounts: DisplayAmounts,
  items: z.array(
    z.object({
      name: z.string(),
      quantity: z.number().int(),
      price: z.string().nullable(),
      image: z
        .string()
        .nullable()
        .describe("The item's image URL when it is https (the page shows it); null when it is not, as the page loads nothing over plain http"),
    }),
  ),
  is_subscription: z.boolean(),
  plan_type: z.string().nullable(),
  redirect_confirm_url: z.string(),
  redirect_cancel_url: z.string(),
});
export type HostedCheckout = z.infer<typeof HostedCheckout>;

/**
 * The hosted page's view of a checkout, to whoever holds one of its merchant link tokens (the
 * token is the proof, as for Create Link Token; no consumer token is needed yet). Unknown link
 * token: 401 `link_token_invalid`; expired: 401 `link_token_expired`; another checkout's: 403.
 */
export const getHostedCheckoutOp = defineOperation(
  "checkout.getHostedCheckout",
  z.object({ checkout_id: z.string().min(1).max(64), link_token: z.string().min(1).max(512) }),
  HostedCheckout,
);
