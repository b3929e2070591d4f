import { z } from "zod";
import { ERROR_CODES, type ErrorPayload } from "../errors.ts";
import { Principal } from "./principal.ts";

/**
 * The RPC request envelope. Every message on a service queue has this shape; anything else
 * is logged and dropped by the server.
 *
 * `deadline` (epoch ms) is when the caller stops waiting: the client sets it from its call
 * timeout, and a server that receives the request later skips it unhandled, since nobody will
 * read the reply. Optional, so senders that do not set it are still served.
 */
export const RpcRequestEnvelope = z.object({
  pattern: z.string().regex(/^[a-z]+\.[a-zA-Z]+$/),
  requestId: z.string().max(128),
  principal: Principal,
  payload: z.unknown(),
  deadline: z.number().int().positive().optional(),
  /**
   * Set by a caller that wants the request run at most once (see libs/messaging's reply
   * ledger): a redelivered or retried message with this id gets the first run's reply.
   */
  callId: z.string().min(1).max(64).optional(),
  /** The HTTP `Idempotency-Key` (docs/api-notes.md, Requests) of the request this call serves, as the client sent it. */
  idempotencyKey: z.string().min(1).max(255).optional(),
  /**
   * The client address of the HTTP request this call serves, as the gateway saw it (behind
   * TRUST_PROXY, the forwarded one): the audit log's `ip_address`. Believed only from the
   * gateway's broker users; a server drops it from any other sender.
   */
  clientIp: z.string().min(1).max(64).optional(),
});
export type RpcRequestEnvelope = z.infer<typeof RpcRequestEnvelope>;

const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]);

export const ErrorPayloadSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  param: z.string().optional(),
  retryAfter: z.number().optional(),
  providerCode: z.string().optional(),
  existingId: z.string().optional(),
}) satisfies z.ZodType<ErrorPayload>;

/**
 * A reply: business errors are replies too, never nacks. `replayed` marks the stored reply of
 * an earlier request with the same `idempotencyKey`, sent again instead of running the handler.
 */
export const RpcReplyEnvelope = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), data: z.unknown(), replayed: z.literal(true).optional() }),
  z.object({ ok: z.literal(false), error: ErrorPayloadSchema, replayed: z.literal(true).optional() }),
]);
export type RpcReplyEnvelope = z.infer<typeof RpcReplyEnvelope>;
