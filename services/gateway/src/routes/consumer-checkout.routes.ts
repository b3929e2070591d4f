import {
  AppError,
  BankLinkTokenResponse,
  CheckoutIdParam,
  ExchangePublicTokenBody,
  MessageResponse,
  MandateText,
  createLinkTokenOp,
  exchangePublicTokenOp,
  getMandateTextOp,
} from "@payrail/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { callService, mandateClient } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ErrorBodySchema, errorResponses } from "./openapi-shared.ts";
import { userAuth } from "../auth/hooks.ts";

const MAX_LINK_TOKEN_LENGTH = 512;

/** The consumer's two headers of bank linking (documentation: the OpenAPI security of the routes that read both). */
export const ConsumerHeaders = z.looseObject({
  authorization: z.string().optional().describe("`Token <auth_token>`, `Bearer <auth_token>` or the bare token"),
  "link-token": z.string().optional().describe("The merchant link token from Generate Link Token, for this checkout"),
});
const responses = { ...errorResponses, 403: ErrorBodySchema, 502: ErrorBodySchema };

/** The `link-token` header: missing is 401 `link_token_missing`; one that cannot be a token, invalid. */
export function linkTokenFrom(request: FastifyRequest): string {
  const header = request.headers["link-token"];
  const token = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!token) throw new AppError("link_token_missing", "the link-token header is required");
  if (token.length > MAX_LINK_TOKEN_LENGTH) throw new AppError("link_token_invalid", "the link-token is not valid");
  return token;
}

/**
 * Spec endpoints 6–7 (bank linking), for a consumer: `Authorization` (auth token) and the
 * merchant's `link-token` for the checkout in the path.
 */
export async function consumerCheckoutRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  // Clients send Create Link Token as a POST with `Content-Type: application/json` and no body;
  // in this scope an empty JSON body is no body instead of 400 (routes needing one still say so).
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === "") return done(null, undefined);
    return parseJson(request, text, done);
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Consumer: bank linking"];
  const preValidation = userAuth(ctx);

  r.route({
    method: ["GET", "POST"],
    url: "/api/consumers/checkout/:checkout_id/create_link_token",
    preValidation,
    schema: {
      tags,
      summary: "Create Link Token (bank linking); GET and POST answer the same",
      headers: ConsumerHeaders,
      params: CheckoutIdParam,
      response: { 200: BankLinkTokenResponse, ...responses },
    },
    handler: (request) =>
      callService(ctx, request, createLinkTokenOp, { checkout_id: request.params.checkout_id, link_token: linkTokenFrom(request) }),
  });

  r.get(
    "/api/consumers/checkout/:checkout_id/mandate_text",
    {
      preValidation,
      schema: {
        tags,
        summary: "Get Mandate Text: the debit authorization to show before the consumer confirms",
        headers: ConsumerHeaders,
        params: CheckoutIdParam,
        response: { 200: MandateText, ...responses },
      },
    },
    (request) => callService(ctx, request, getMandateTextOp, { checkout_id: request.params.checkout_id, link_token: linkTokenFrom(request) }),
  );

  r.post(
    "/api/consumers/checkout/:checkout_id/exchange_public_token",
    {
      preValidation,
      schema: {
        tags,
        summary: "Exchange Public Token",
        headers: ConsumerHeaders,
        params: CheckoutIdParam,
        body: ExchangePublicTokenBody,
        response: { 200: MessageResponse, ...responses },
      },
    },
    (request) =>
      callService(ctx, request, exchangePublicTokenOp, {
        ...request.body,
        checkout_id: request.params.checkout_id,
        link_token: linkTokenFrom(request),
        ...(request.body.mandate ? { client: mandateClient(request) } : {}),
      }),
  );
}
