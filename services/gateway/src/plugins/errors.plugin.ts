import { AppError } from "@payrail/contracts";
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fromFastifyError, sendAppError } from "@payrail/web";
import { ROUTER_ERROR_HEADERS } from "./response-headers.plugin.ts";

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

  // The method, not the path: the path is anyone's input, and an error body never echoes it.
  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(app, request.url);
    if (allowed.length === 0) return sendAppError(reply, request, new AppError("route_not_found", `no route for ${request.method} at this path`));
    reply.header("allow", allowed.join(", "));
    return sendAppError(reply, request, new AppError("method_not_allowed", `${request.method} is not allowed at this path; use ${allowed.join(" or ")}`));
  });
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** The methods the router has a route for at this concrete path (405's `Allow`); none: a 404. */
function allowedMethods(app: FastifyInstance, url: string): string[] {
  const path = url.split("?", 1)[0] ?? "";
  return METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}

/**
 * Fastify's `frameworkErrors`: the router refused the URL before any route, hook or error
 * handler ran (FST_ERR_BAD_URL: broken percent-encoding; FST_ERR_MAX_PARAM_LENGTH: a path
 * segment over 100 characters). Left to fastify, these answer its own body, without
 * `request_id` and quoting the URL. Here they get the error body, and the headers the skipped
 * onRequest hooks would have set.
 */
export function answerRouterError(log: FastifyBaseLogger) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header("x-request-id", request.id);
    for (const [name, value] of Object.entries(ROUTER_ERROR_HEADERS)) reply.header(name, value);
    const error =
      err.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? new AppError("uri_too_long", "a path segment is longer than any valid identifier")
        : err.code === "FST_ERR_BAD_URL"
          ? new AppError("invalid_request", "the URL is not valid (malformed percent-encoding)")
          : fromFastifyError(err);
    // The request-log plugin's onResponse hook does not run for these: write its line here.
    log.info(
      { requestId: request.id, method: request.method, route: "unmatched", status: error.status, error: error.code },
      "request completed",
    );
    sendAppError(reply, request, error);
  };
}
