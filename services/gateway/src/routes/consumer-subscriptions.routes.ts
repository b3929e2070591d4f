import { ConsumerListQuery, ConsumerSubscriptionList, listConsumerSubscriptionsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { AuthorizationHeader, errorResponses } from "./openapi-shared.ts";

/** The consumer's subscriptions across merchants (docs/api-notes.md, The hosted page, the dashboard and the portal). */
export async function consumerSubscriptionsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/consumers/subscriptions",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags: ["Consumer: subscriptions"],
        summary: "List Subscriptions: the consumer's subscriptions at every merchant, newest first (`next_cursor` pages)",
        headers: AuthorizationHeader,
        querystring: ConsumerListQuery,
        response: { 200: ConsumerSubscriptionList, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listConsumerSubscriptionsOp, request.query),
  );
}
