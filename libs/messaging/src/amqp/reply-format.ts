import type { Logger } from "@payrail/runtime";
import type { RpcReplyEnvelope } from "@payrail/contracts";
import { encodeReply, settleReply } from "../rpc/dispatch-request.ts";
import { JsonText } from "../rpc/json-text.ts";

/**
 * How a reply travels on RabbitMQ. The body is always the reply envelope as JSON, which any
 * client can parse. A success is written by hand as `{"ok":true,"data":<data>}` (or
 * `{"ok":true,"replayed":true,"data":<data>}`), the same text `JSON.stringify` gives for that
 * key order, and the message's `type` says so (`ok`, `ok.replayed`). A client that sees that
 * type finds the data's JSON at a known offset: it parses only the data (no envelope schema
 * to check: a success carries nothing else), or, for a caller that asked for `asJsonText`, parses
 * nothing. Errors, and replies of servers that do not set the type, go the general way
 * (`JSON.parse` and the envelope's schema).
 */
const OK_TEXT = '{"ok":true,"data":';
const REPLAYED_TEXT = '{"ok":true,"replayed":true,"data":';
const OK_PREFIX = Buffer.from(OK_TEXT);
const REPLAYED_PREFIX = Buffer.from(REPLAYED_TEXT);
const OK_TYPE = "ok";
const REPLAYED_TYPE = "ok.replayed";
const CLOSE_BRACE = 0x7d;

/** The reply's body and its `type` property (none for errors). */
export function encodeReplyMessage(reply: RpcReplyEnvelope, logger: Logger): { body: Buffer; type: string | undefined } {
  if (!reply.ok) return { body: Buffer.from(encodeReply(reply, logger)), type: undefined };
  let data: string | undefined;
  try {
    data = JSON.stringify(reply.data);
  } catch (err) {
    logger.error({ err }, "RPC reply is not serialisable");
    return { body: Buffer.from(encodeReply({ ok: false, error: { code: "internal_error", message: "Internal error" } }, logger)), type: undefined };
  }
  // JSON.stringify answers undefined for a function or a symbol: JSON has no such value.
  const json = data ?? "null";
  return reply.replayed ? { body: Buffer.from(`${REPLAYED_TEXT}${json}}`), type: REPLAYED_TYPE } : { body: Buffer.from(`${OK_TEXT}${json}}`), type: OK_TYPE };
}

/**
 * A reply message as the call's result: its data (parsed, or as `JsonText` when `asJsonText`),
 * or the AppError it carries (thrown). `onReplayed` is called for a replayed reply.
 */
export function decodeReplyMessage(body: Buffer, type: unknown, asJsonText: boolean, onReplayed: (() => void) | undefined): unknown {
  const prefix = type === OK_TYPE ? OK_PREFIX : type === REPLAYED_TYPE ? REPLAYED_PREFIX : undefined;
  if (prefix !== undefined && startsWith(body, prefix) && body[body.length - 1] === CLOSE_BRACE) {
    if (prefix === REPLAYED_PREFIX) onReplayed?.();
    const data = body.subarray(prefix.length, body.length - 1);
    return asJsonText ? new JsonText(data) : JSON.parse(data.toString("utf8"));
  }
  return settleReply(JSON.parse(body.toString("utf8")), onReplayed);
}

function startsWith(body: Buffer, prefix: Buffer): boolean {
  return body.length > prefix.length && body.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}
