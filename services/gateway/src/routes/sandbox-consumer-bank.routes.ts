import {
  CheckoutIdParam,
  SandboxPublicTokenBody,
  SandboxPublicTokenResponse,
  sandboxConsumerPublicTokenOp,
  sandboxPublicTokenOp,
  verifyLinkTokenOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { onBehalfOfMerchant } from "../auth/merchant-principal.ts";
import { userAuth } from "../auth/hooks.ts";
import { AuthorizationHeader, ErrorBodySchema, errorResponses } from "./openapi-shared.ts";
import { ConsumerHeaders, linkTokenFrom } from "./consumer-checkout.routes.ts";

/**
 * The sandbox bank's account picker for a consumer's page, which has no api-key: the same
 * answer as `POST /api/sandbox/public_token`, for the consumer's auth token and the merchant's
 * link token of the checkout (both checked as for Create Link Token). Sandbox mode only.
 */
export async function sandboxConsumerBankRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/api/sandbox/consumers/checkout/:checkout_id/public_token",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "The sandbox account picker for a consumer's page: a public token for a bank-linking token",
        headers: ConsumerHeaders,
        params: CheckoutIdParam,
        body: SandboxPublicTokenBody,
        response: { 200: SandboxPublicTokenResponse, ...errorResponses, 403: ErrorBodySchema },
      },
    },
    async (request) => {
      const checkout = await callService(ctx, request, verifyLinkTokenOp, {
        checkout_id: request.params.checkout_id,
        link_token: linkTokenFrom(request),
      });
      return callService(ctx, request, sandboxPublicTokenOp, request.body, onBehalfOfMerchant(ctx, checkout.merchant_id));
    },
  );

  r.post(
    "/api/sandbox/consumers/public_token",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "The sandbox account picker for the consumer's own bank-linking token (a subscription's re-link)",
        headers: AuthorizationHeader,
        body: SandboxPublicTokenBody,
        response: { 200: SandboxPublicTokenResponse, ...errorResponses, 403: ErrorBodySchema },
      },
    },
    (request) => callService(ctx, request, sandboxConsumerPublicTokenOp, request.body),
  );
}
