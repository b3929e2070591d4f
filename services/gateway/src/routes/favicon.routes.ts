import type { FastifyInstance } from "fastify";

/**
 * The icon browsers ask every origin for (the dashboard, the portal and the hosted page have
 * no <link rel="icon">): a 32×32 PNG in an ICO, kept inline (168 bytes) so the production
 * bundle needs no asset for it. Without it every first page view logged a 404.
 */
const ICON = Buffer.from("AAABAAEAICAAAAEAIACSAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAFlJREFUeNpjYMABZP1u/KcmZiAGUNtSkhxDL8uxOoLelmM4YmQ7YKAshzti1AH/BxiMOmDgHTCaC0YdMOqA0XJg1AGjuWDAHTDaKh4UDhjwrtmg6JwOVPccADOvRCeI1WsHAAAAAElFTkSuQmCC", "base64");

export async function faviconRoutes(app: FastifyInstance): Promise<void> {
  app.get("/favicon.ico", { schema: { hide: true } }, (_request, reply) =>
    reply.header("content-type", "image/x-icon").header("cache-control", "public, max-age=604800").send(ICON),
  );
}
