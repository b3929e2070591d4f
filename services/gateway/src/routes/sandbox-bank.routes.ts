import { SandboxPublicTokenBody, SandboxPublicTokenResponse, sandboxPublicTokenOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";
import { merchantAuth } from "../auth/hooks.ts";

/**
 * Sandbox bank data (docs/api-notes.md, The sandbox): stands in for the provider's account picker, so a test can
 * finish bank linking without a browser. Registered only when PROVIDERS=sandbox; any api-key.
 */
export async function sandboxBankRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/sandbox/public_token",
    {
      preValidation: merchantAuth(ctx),
      schema: {
        tags: ["Sandbox"],
        summary: "Public token for a bank-linking token, as the provider's UI would give it",
        headers: ApiKeyHeader,
        body: SandboxPublicTokenBody,
        response: { 200: SandboxPublicTokenResponse, ...errorResponses },
      },
    },
    (request) => callService(ctx, request, sandboxPublicTokenOp, request.body),
  );
}
