import {
  AddOperatorBody,
  ApiKeyList,
  MerchantList,
  MerchantListQuery,
  listApiKeysOp,
  listMerchantsOp,
  InviteMerchantUserBody,
  MerchantUserInvitation,
  CreateMerchantBody,
  CreateMerchantResponse,
  IssuedApiKey,
  MerchantFundingSourcesBody,
  MerchantIdParam,
  MerchantView,
  OperatorList,
  OperatorParams,
  OperatorView,
  RemovedOperator,
  RevokeKeyParams,
  addOperatorOp,
  invitationUrl,
  inviteMerchantUserOp,
  listMerchantUsersOp,
  createMerchantOp,
  generateApiKeyOp,
  listOperatorsOp,
  removeOperatorOp,
  reconcileOp,
  updateMerchantFundingSourcesOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminAuth } from "../auth/hooks.ts";
import { callService, revokeApiKey, publicBase } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { AdminHeader, errorResponses } from "./openapi-shared.ts";

/**
 * Merchant administration (docs/api-notes.md, Credentials), behind `x-admin-token`: ADMIN_TOKEN's value, or the
 * token `payrail start` makes for the CLI beside an embedded store (`tokens` holds those set).
 * Not registered at all when neither is, so the routes answer 404 like any unknown path; and
 * documented (in /docs) only with ADMIN_TOKEN, since the CLI's token is nobody else's.
 */
export async function adminRoutes(app: FastifyInstance, ctx: GatewayContext, tokens: readonly string[], documented: boolean): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Admin"];
  const hide = !documented;
  const preValidation = adminAuth(tokens);

  r.post(
    "/api/admin/merchants",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Create a merchant and its first API key",
        headers: AdminHeader,
        body: CreateMerchantBody,
        response: { 200: CreateMerchantResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, createMerchantOp, request.body),
  );

  r.get(
    "/api/admin/merchants",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "List merchants, newest first",
        headers: AdminHeader,
        querystring: MerchantListQuery,
        response: { 200: MerchantList, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listMerchantsOp, { limit: request.query.limit }),
  );

  r.patch(
    "/api/admin/merchants/:id",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Change a merchant's funding sources: where its debits land and its bank, where payouts go",
        headers: AdminHeader,
        params: MerchantIdParam,
        body: MerchantFundingSourcesBody,
        response: { 200: MerchantView, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, updateMerchantFundingSourcesOp, { merchant_id: request.params.id, ...request.body }),
  );

  r.get(
    "/api/admin/merchants/:id/api_keys",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "List a merchant's API keys by prefix, active or revoked",
        headers: AdminHeader,
        params: MerchantIdParam,
        response: { 200: ApiKeyList, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listApiKeysOp, { merchant_id: request.params.id }),
  );

  r.post(
    "/api/admin/merchants/:id/generate_api_key",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Issue another API key (older keys stay valid)",
        headers: AdminHeader,
        params: MerchantIdParam,
        response: { 200: IssuedApiKey, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, generateApiKeyOp, { merchant_id: request.params.id }),
  );

  r.delete(
    "/api/admin/merchants/:id/api_keys/:key_prefix",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Revoke an API key by its prefix",
        headers: AdminHeader,
        params: RevokeKeyParams,
        response: { 200: z.object({ revoked: z.literal(true), key_prefix: z.string() }), ...errorResponses },
      },
    },
    (request) => revokeApiKey(ctx, request, request.params.id, request.params.key_prefix),
  );

  r.post(
    "/api/admin/merchants/:id/users",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Invite a dashboard user: answers the invitation link (valid 7 days, shown once) where they set a password",
        headers: AdminHeader,
        params: MerchantIdParam,
        body: InviteMerchantUserBody,
        response: { 200: MerchantUserInvitation, ...errorResponses },
      },
    },
    async (request) => {
      const invited = await callService(ctx, request, inviteMerchantUserOp, { merchant_id: request.params.id, ...request.body });
      return { ...invited, url: invitationUrl(publicBase(ctx, request), invited.invitation_token) };
    },
  );

  r.get(
    "/api/admin/merchants/:id/users",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "List the merchant's dashboard users, oldest first: id, role, invited or active, email",
        headers: AdminHeader,
        params: MerchantIdParam,
        response: { 200: listMerchantUsersOp.response, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listMerchantUsersOp, { merchant_id: request.params.id }),
  );

  r.post(
    "/api/admin/merchants/:id/operators",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Register a user (by phone) as an operator: their auth token may decide and pay out the merchant's refunds",
        headers: AdminHeader,
        params: MerchantIdParam,
        body: AddOperatorBody,
        response: { 200: OperatorView, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, addOperatorOp, { merchant_id: request.params.id, phone: request.body.phone }),
  );

  r.get(
    "/api/admin/merchants/:id/operators",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "List the merchant's operators, oldest first",
        headers: AdminHeader,
        params: MerchantIdParam,
        response: { 200: OperatorList, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, listOperatorsOp, { merchant_id: request.params.id }),
  );

  r.delete(
    "/api/admin/merchants/:id/operators/:phone",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Remove an operator (phone as `%2B…` or digits alone): their token stops acting on refunds at once",
        headers: AdminHeader,
        params: OperatorParams,
        response: { 200: RemovedOperator, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, removeOperatorOp, { merchant_id: request.params.id, phone: request.params.phone }),
  );

  r.post(
    "/api/admin/reconcile",
    {
      preValidation,
      schema: {
        hide,
        tags,
        summary: "Run one reconciler pass now: bring what is pending to the provider's status",
        headers: AdminHeader,
        body: reconcileOp.request,
        response: { 200: reconcileOp.response, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, reconcileOp, request.body),
  );
}
