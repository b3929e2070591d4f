import { CheckoutIdParam, HostedCheckout, getHostedCheckoutOp, getMerchantOp } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { onBehalfOfMerchant } from "../auth/merchant-principal.ts";
import { ErrorBodySchema, errorResponses } from "./openapi-shared.ts";
import { linkTokenFrom } from "./consumer-checkout.routes.ts";

const LinkTokenHeader = z.looseObject({
  "link-token": z.string().optional().describe("The merchant link token from Generate Link Token, for this checkout"),
});
// The merchant's name, not its id: the consumer has no use for the id.
const HostedCheckoutView = HostedCheckout.omit({ merchant_id: true }).extend({ merchant_name: z.string() });

/**
 * What the hosted page (or a merchant's own consumer page) shows before the consumer signs in:
 * the order, the merchant's name and where the page ends. The merchant's `link-token` is the
 * only credential, as the page has nothing else yet.
 */
export async function consumerHostedRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/consumers/checkout/:checkout_id",
    {
      // The page's only credential is the link token: its requests count against that token's
      // budget (the credential limit of rate-limit.plugin.ts exempts anonymous requests).
      config: {
        rateLimit: {
          keyGenerator: (request: FastifyRequest) => `link:${sha256Hex(String(request.headers["link-token"] ?? ""))}`,
          allowList: () => false,
        },
      },
      schema: {
        tags: ["Consumer: bank linking"],
        summary: "Hosted Checkout: the order as the consumer's page shows it (link-token only)",
        headers: LinkTokenHeader,
        params: CheckoutIdParam,
        response: { 200: HostedCheckoutView, ...errorResponses, 403: ErrorBodySchema },
      },
    },
    async (request) => {
      const linkToken = linkTokenFrom(request);
      const checkout = await callService(ctx, request, getHostedCheckoutOp, { checkout_id: request.params.checkout_id, link_token: linkToken });
      const merchant = await callService(ctx, request, getMerchantOp, { merchant_id: checkout.merchant_id }, onBehalfOfMerchant(ctx, checkout.merchant_id));
      const { merchant_id: _merchantId, ...shown } = checkout;
      return { ...shown, merchant_name: merchant.name };
    },
  );
}
