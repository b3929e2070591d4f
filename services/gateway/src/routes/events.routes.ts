import {
  EventIdParam,
  EventListQuery,
  EventListResponse,
  RedeliverAnswer,
  WebhookEvent,
  getEventOp,
  listEventDeliveriesOp,
  listEventsOp,
  redeliverEventOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/** Events API (docs/api-notes.md, Events and webhooks): the merchant's events of the last 30 days, by `api-key`. */
export async function eventsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Events and webhooks"];
  const preValidation = merchantAuth(ctx);

  r.get(
    "/api/merchants/events",
    {
      preValidation,
      schema: {
        tags,
        summary: "List the merchant's events, newest first (`type` with `refund.*` wildcards, `limit`, `starting_after`)",
        headers: ApiKeyHeader,
        querystring: EventListQuery,
        response: { 200: EventListResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listEventsOp, request.query),
  );

  r.get(
    "/api/merchants/events/:id",
    {
      preValidation,
      schema: { tags, summary: "One event of the merchant", headers: ApiKeyHeader, params: EventIdParam, response: { 200: WebhookEvent, ...errorResponses } },
    },
    (request) => callService(ctx, request, getEventOp, request.params),
  );

  r.get(
    "/api/merchants/events/:id/deliveries",
    {
      preValidation,
      schema: {
        tags,
        summary: "An event's delivery attempts to every endpoint, newest first",
        headers: ApiKeyHeader,
        params: EventIdParam,
        response: { 200: listEventDeliveriesOp.response, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listEventDeliveriesOp, request.params),
  );

  r.post(
    "/api/merchants/events/:id/redeliver",
    {
      preValidation,
      schema: {
        tags,
        summary: "Send an event again to every enabled endpoint that takes its type (same webhook-id)",
        headers: ApiKeyHeader,
        params: EventIdParam,
        response: { 200: RedeliverAnswer, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, redeliverEventOp, request.params),
  );
}
