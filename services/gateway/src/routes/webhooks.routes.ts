import { handleTransferWebhookOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { callService } from "@payrail/web";
import type { GatewayContext } from "../gateway-context.ts";

const SIGNATURE_HEADER = "x-request-signature-sha-256";

/**
 * The transfer provider's webhooks. The signature covers the exact bytes sent, so this scope
 * keeps JSON bodies as raw text; payments checks the signature before anything is parsed.
 */
export async function webhooksRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => done(null, body));

  app.post(
    "/api/webhooks/transfers",
    { schema: { tags: ["Webhooks"], summary: "Transfer status webhooks (Dwolla), signed with X-Request-Signature-SHA-256" } },
    (request) => {
      const header = request.headers[SIGNATURE_HEADER];
      const signature = (Array.isArray(header) ? header[0] : header) ?? null;
      const rawBody = typeof request.body === "string" ? request.body : "";
      return callService(ctx, request, handleTransferWebhookOp, { raw_body: rawBody, signature: signature?.slice(0, 512) ?? null });
    },
  );
}
