import { ANONYMOUS, type Operation, type Principal, type RequestOf, type ResponseOf } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the route's auth hook; services get it on the RPC envelope. */
    principal: Principal;
  }
}

/**
 * Calls a service on behalf of the request: its id and resolved principal (or, for the auth
 * hooks that resolve it, `principal`) travel along. The pattern is noted for the request's log line.
 */
export function callService<O extends Operation>(
  ctx: GatewayContext,
  request: FastifyRequest,
  operation: O,
  payload: RequestOf<O>,
  principal: Principal = request.principal ?? ANONYMOUS,
): Promise<ResponseOf<O>> {
  if (request.rpcCalls === null) request.rpcCalls = [operation.pattern];
  else request.rpcCalls.push(operation.pattern);
  return ctx.transport.call(operation, payload, { requestId: request.id, principal });
}
