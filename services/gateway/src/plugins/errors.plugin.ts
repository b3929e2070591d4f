import { AppError } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorBody, fromFastifyError } from "../http/error-body.ts";

/** Sends an AppError as API.md's error body with its status (and Retry-After for 429/503). */
export function sendAppError(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  request.errorCode = error.code; // for the request's log line
  if (error.retryAfter !== undefined) reply.header("retry-after", String(Math.max(1, Math.ceil(error.retryAfter))));
  else if (error.status === 503 || error.status === 429) reply.header("retry-after", "1");
  return reply.code(error.status).send(errorBody({ ...error.toPayload(), status: error.status }, request.id));
}

/**
 * One place turns every failure into the error body: business errors from services,
 * validation errors, body-parser errors, unknown routes. No input reaches a stack trace.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request, reply) => {
    if (err instanceof AppError) return sendAppError(reply, request, err);
    const error = fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    if (error.code === "internal_error") request.log.error({ err }, "unhandled error");
    // The request's one info line carries the code; the parser's own words are for debugging.
    else request.log.debug({ code: error.code, detail: (err as Error).message }, "request rejected");
    return sendAppError(reply, request, error);
  });

  app.setNotFoundHandler((request, reply) =>
    sendAppError(reply, request, new AppError("route_not_found", `no route ${request.method} ${request.url.split("?")[0]}`)),
  );
}
