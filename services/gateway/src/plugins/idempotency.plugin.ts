import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** The service answered with the stored reply of an earlier request with this Idempotency-Key. */
    idempotentReplayed: boolean;
  }
}

/** API.md §11: a replayed response, success or error, says so in `Idempotent-Replayed: true`. */
export function registerIdempotencyReplayHeader(app: FastifyInstance): void {
  app.decorateRequest("idempotentReplayed", false);
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.idempotentReplayed) reply.header("idempotent-replayed", "true");
    done(null, payload);
  });
}
