import type { FastifyInstance, onSendHookHandler } from "fastify";
import type {} from "@payrail/web";
import { appendRouteHook } from "./route-hooks.ts";

/**
 * A replayed response, success or error, says so in `Idempotent-Replayed: true` (docs/api-notes.md, Requests).
 * Only a POST carries an Idempotency-Key (`callService`), so the hook is added to POST routes
 * alone (as each is declared): GETs do not pay for it.
 */
export function registerIdempotencyReplayHeader(app: FastifyInstance): void {
  app.decorateRequest("idempotentReplayed", false);
  const markReplayed: onSendHookHandler = (request, reply, payload, done) => {
    if (request.idempotentReplayed) reply.header("idempotent-replayed", "true");
    done(null, payload);
  };
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST")) return;
    appendRouteHook(route, "onSend", markReplayed);
  });
}
