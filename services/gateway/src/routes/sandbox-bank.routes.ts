import { SandboxPublicTokenBody, SandboxPublicTokenResponse, sandboxPublicTokenOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authenticateMerchant } from "../auth/merchant-auth.ts";
import { callService } from "../http/call-service.ts";
import type { GatewayContext } from "../gateway-context.ts";
import { ApiKeyHeader, errorResponses } from "./openapi-shared.ts";

/**
 * Sandbox bank data (API.md §8): stands in for the provider's account picker, so a test can
 * finish bank linking without a browser. Registered only when PROVIDERS=sandbox; any api-key.
 */
export async function sandboxBankRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = async (request: FastifyRequest) => {
    request.principal = await authenticateMerchant(ctx, request);
  };

  r.post(
    "/api/sandbox/public_token",
    {
      preValidation,
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
