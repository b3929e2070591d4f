import { SandboxVerificationCode, VerificationCodePhoneParam, getVerificationCodeOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";
import { merchantAuth } from "../auth/hooks.ts";

/**
 * Sandbox SMS (docs/api-notes.md, The sandbox): the merchant's own code for the last send to a phone, so a test can
 * finish Verify Code without a handset; its token reaches that merchant's records only
 * (docs/decisions/0001-sandbox-tenancy.md). Registered only when PROVIDERS=sandbox; any api-key,
 * for the phones identity lets that merchant read (its consumers', its operators', and phones
 * nobody owns yet).
 */
export async function sandboxIdentityRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/sandbox/verification_codes/:phone",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "This merchant's code for the last send to a phone (E.164; `%2B` or digits alone for the `+`); its token sees this merchant's records only",
        headers: ApiKeyHeader,
        params: VerificationCodePhoneParam,
        response: { 200: SandboxVerificationCode, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, getVerificationCodeOp, request.params),
  );
}
