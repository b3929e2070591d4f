import { ANONYMOUS, type Operation, type Principal, type RequestOf, type ResponseOf } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";
import { idempotencyKeyOf } from "./idempotency-key.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the route's auth hook; services get it on the RPC envelope. */
    principal: Principal;
  }
}

/**
 * Calls a service on behalf of the request: its id and resolved principal (or, for the auth
 * hooks that resolve it, `principal`) travel along. The pattern is noted for the request's log line.
 *
 * A POST route's own call (not an auth hook's lookup) runs at most once: it carries a call id,
 * so a redelivery or a retry gets the first reply, and the client's `Idempotency-Key`, which
 * the service remembers for its owner for 24 h (API.md §11); a reply it replays is marked
 * `Idempotent-Replayed: true`. Each POST route makes exactly one such call.
 */
export function callService<O extends Operation>(
  ctx: GatewayContext,
  request: FastifyRequest,
  operation: O,
  payload: RequestOf<O>,
  principal?: Principal,
): Promise<ResponseOf<O>> {
  if (request.rpcCalls === null) request.rpcCalls = [operation.pattern];
  else request.rpcCalls.push(operation.pattern);
  const callCtx = { requestId: request.id, principal: principal ?? request.principal ?? ANONYMOUS };
  if (principal !== undefined || request.method !== "POST") return ctx.transport.call(operation, payload, callCtx);
  const onReplayed = () => {
    request.idempotentReplayed = true;
  };
  return ctx.transport.call(operation, payload, callCtx, { once: true, idempotencyKey: idempotencyKeyOf(request), onReplayed });
}
