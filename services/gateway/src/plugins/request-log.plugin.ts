import type { Logger } from "@payrail/runtime";
import type { FastifyInstance } from "fastify";
import type {} from "@payrail/web";

/**
 * One `info` line per request, written when the response is sent: request id (the logger's
 * `requestId` binding), method, route pattern, status, duration in ms, the RPC operations it
 * called (a pattern's prefix is the service) and, when it failed, the error code. It replaces
 * fastify's two lines per request (`disableRequestLogging`), and the services' "rpc handled"
 * lines are at debug, so the default level costs one line per request.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.decorateRequest("rpcCalls", null);
  app.decorateRequest("errorCode", null);
  // The gateway's logger is pino's (buildApp's loggerInstance), whose type fastify narrows.
  const log = app.log as unknown as Logger;
  app.addHook("onResponse", (request, reply, done) => {
    // Below info (LOG_LEVEL warn or error) the line is not written: skip building it, whose
    // `routeOptions` alone is a dozen-field object made per request.
    if (!log.isLevelEnabled("info")) return done();
    // The root logger with the id as a field: the same line as request.log would write,
    // without making the request's child logger (see lazy-request-logger.ts).
    app.log.info(
      {
        requestId: request.id,
        method: request.method,
        // The pattern, not the URL: the URL may carry ids, and unknown paths are anyone's input.
        route: request.routeOptions.url ?? "unmatched",
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        rpc: request.rpcCalls ?? undefined,
        error: request.errorCode ?? undefined,
      },
      "request completed",
    );
    done();
  });
}
