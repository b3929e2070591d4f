import {
  CreateWebhookEndpointBody,
  DeletedWebhookEndpoint,
  DeliveryListQuery,
  DeliveryListResponse,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointIdParam,
  WebhookEndpointListQuery,
  WebhookEndpointListResponse,
  WebhookEndpointWithSecret,
  createWebhookEndpointOp,
  deleteWebhookEndpointOp,
  getWebhookEndpointOp,
  listDeliveriesOp,
  listWebhookEndpointsOp,
  rotateWebhookSecretOp,
  updateWebhookEndpointOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { merchantAuth } from "../auth/hooks.ts";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

const PATH = "/api/merchants/webhook_endpoints";

/** Webhook endpoints (docs/api-notes.md, Events and webhooks), by `api-key`: the secret is answered on create and rotation only. */
export async function webhookEndpointsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Events and webhooks"];
  const preValidation = merchantAuth(ctx);
  const headers = ApiKeyHeader;
  const params = WebhookEndpointIdParam;

  r.post(
    PATH,
    { preValidation, schema: { tags, summary: "Register a webhook endpoint (its secret is shown here once)", headers, body: CreateWebhookEndpointBody, response: { 200: WebhookEndpointWithSecret, ...errorResponses } } },
    (request) => callService(ctx, request, createWebhookEndpointOp, request.body),
  );
  r.get(
    PATH,
    { preValidation, schema: { tags, summary: "List the merchant's webhook endpoints", headers, querystring: WebhookEndpointListQuery, response: { 200: WebhookEndpointListResponse, ...errorResponses } } },
    (request) => callService(ctx, request, listWebhookEndpointsOp, request.query),
  );
  r.get(
    `${PATH}/:id`,
    { preValidation, schema: { tags, summary: "One webhook endpoint", headers, params, response: { 200: WebhookEndpoint, ...errorResponses } } },
    (request) => callService(ctx, request, getWebhookEndpointOp, request.params),
  );
  r.post(
    `${PATH}/:id`,
    { preValidation, schema: { tags, summary: "Update url, enabled_events, description or status (enabled / disabled)", headers, params, body: UpdateWebhookEndpointBody, response: { 200: WebhookEndpoint, ...errorResponses } } },
    (request) => callService(ctx, request, updateWebhookEndpointOp, { ...request.body, id: request.params.id }),
  );
  r.delete(
    `${PATH}/:id`,
    { preValidation, schema: { tags, summary: "Delete a webhook endpoint", headers, params, response: { 200: DeletedWebhookEndpoint, ...errorResponses } } },
    (request) => callService(ctx, request, deleteWebhookEndpointOp, request.params),
  );
  r.post(
    `${PATH}/:id/rotate_secret`,
    { preValidation, schema: { tags, summary: "A new signing secret (shown once); the old one keeps signing alongside for 24 h", headers, params, response: { 200: WebhookEndpointWithSecret, ...errorResponses } } },
    (request) => callService(ctx, request, rotateWebhookSecretOp, request.params),
  );
  r.get(
    `${PATH}/:id/deliveries`,
    { preValidation, schema: { tags, summary: "The endpoint's delivery attempts, newest first", headers, params, querystring: DeliveryListQuery, response: { 200: DeliveryListResponse, ...errorResponses } } },
    (request) => callService(ctx, request, listDeliveriesOp, { ...request.query, id: request.params.id }),
  );
}
