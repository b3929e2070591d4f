import {
  MessageResponse,
  SendCodeBody,
  SendCodeResponse,
  VerifyCodeBody,
  VerifyCodeResponse,
  logoutOp,
  sendCodeOp,
  verifyCodeOp,
} from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { AuthorizationHeader, ErrorBodySchema, errorResponses } from "./openapi-shared.ts";
import { userAuth } from "../auth/hooks.ts";

/**
 * Spec endpoints 4–5 and logout (docs/api-notes.md, Credentials). Send Code and Verify Code take no credential and
 * look at no header: clients send `Authorization` or `api-key` anyway, and those are ignored,
 * valid or not. Their limits (resends per phone, per client address and in total, attempts per
 * code) live in identity.
 */
export async function consumerIdentityRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Consumer: identity"];

  r.post(
    "/api/verify_user/send_code",
    {
      schema: {
        tags,
        summary: "Send Code: text a 6-digit code to the phone (`phone_number` accepted for `phone`)",
        body: SendCodeBody,
        response: { 200: SendCodeResponse, ...errorResponses, 502: ErrorBodySchema },
      },
    },
    // The address as TRUST_PROXY decided it: identity's hourly budget per client (docs/api-notes.md, Limits).
    (request) => callService(ctx, request, sendCodeOp, { phone: request.body.phone, client_address: request.ip }),
  );

  r.post(
    "/api/verify_user/verify_code",
    {
      schema: {
        tags,
        summary: "Verify Code: exchange the code for an auth token (`phone_number`, `code` accepted)",
        body: VerifyCodeBody,
        response: { 200: VerifyCodeResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, verifyCodeOp, request.body),
  );

  r.post(
    "/api/verify_user/logout",
    {
      preValidation: userAuth(ctx),
      schema: {
        tags,
        summary: "Logout: revoke the presented auth token",
        headers: AuthorizationHeader,
        response: { 200: MessageResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, logoutOp, {}),
  );
}
