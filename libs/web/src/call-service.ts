import { ANONYMOUS, type Operation, type Principal, type RequestOf, type ResponseOf } from "@payrail/contracts";
import { JsonText } from "@payrail/messaging";
import type { FastifyReply, FastifyRequest } from "fastify";
import "./request-fields.ts";
import type { WebContext } from "./web-context.ts";
import { idempotencyKeyOf } from "./idempotency-key.ts";

/**
 * Calls a service on behalf of the request: its id and resolved principal (or, for the auth
 * hooks that resolve it, `principal`) travel along. The pattern is noted for the request's log line.
 *
 * A POST route's own call (not an auth hook's lookup) runs at most once: it carries a call id,
 * so a redelivery or a retry gets the first reply, and the client's `Idempotency-Key`, which
 * the service remembers for its owner for 24 h (docs/api-notes.md, Requests); a reply it replays is marked
 * `Idempotent-Replayed: true`. Each POST route makes exactly one such call.
 */
export function callService<O extends Operation>(
  ctx: WebContext,
  request: FastifyRequest,
  operation: O,
  payload: RequestOf<O>,
  principal?: Principal,
): Promise<ResponseOf<O>> {
  return call(ctx, request, operation, payload, principal, false) as Promise<ResponseOf<O>>;
}

/**
 * `callService` for a route that answers the service's reply as it is, without looking inside:
 * over RabbitMQ the reply's JSON text goes to the response unparsed (a `JsonText`), in one
 * process the value. The route hands the result straight back to fastify, so `reply` gets the
 * JSON content type for the bytes; the promised type is the value's, which those bytes are.
 */
export async function answerFromService<O extends Operation>(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: O,
  payload: RequestOf<O>,
): Promise<ResponseOf<O>> {
  const answer = await call(ctx, request, operation, payload, undefined, true);
  if (!(answer instanceof JsonText)) return answer;
  reply.header("content-type", JSON_CONTENT_TYPE);
  return answer.bytes as unknown as ResponseOf<O>;
}

/** fastify's own for a serialised body. */
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

function call<O extends Operation>(
  ctx: WebContext,
  request: FastifyRequest,
  operation: O,
  payload: RequestOf<O>,
  principal: Principal | undefined,
  asJsonText: boolean,
): Promise<ResponseOf<O> | JsonText> {
  if (request.rpcCalls === null) request.rpcCalls = [operation.pattern];
  else request.rpcCalls.push(operation.pattern);
  const callCtx = { requestId: request.id, principal: principal ?? request.principal ?? ANONYMOUS, clientIp: clientIpOf(request) };
  if (principal !== undefined || request.method !== "POST") return ctx.transport.call(operation, payload, callCtx, asJsonText ? { asJsonText } : undefined);
  const onReplayed = () => {
    request.idempotentReplayed = true;
  };
  return ctx.transport.call(operation, payload, callCtx, { once: true, idempotencyKey: idempotencyKeyOf(request), onReplayed, asJsonText });
}

/**
 * The client address the services get for the audit log (behind TRUST_PROXY, the forwarded
 * one). An address the envelope could not carry (none, when the socket is gone) is left out
 * rather than failing the call.
 */
function clientIpOf(request: FastifyRequest): string | undefined {
  const ip = request.ip;
  return typeof ip === "string" && ip.length > 0 && ip.length <= 64 ? ip : undefined;
}
