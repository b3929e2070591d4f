import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { AppError, statusOf, type Principal, type RpcReplyEnvelope } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { ReplyLedger } from "./reply-ledger.port.ts";

/** An Idempotency-Key is remembered 24 h (docs/api-notes.md, Requests). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A call id only has to outlive the redeliveries and retries of its call: an hour is ample. */
export const CALL_ID_TTL_MS = 60 * 60 * 1000;
/**
 * A running call holds its key for this long and renews it every `RENEW_EVERY_MS` while it
 * runs, so a runner that died stalls a redelivery of its call (or a retry with the same key) at
 * most this long, while a slow but live one is not run twice. Most calls end before their first
 * renewal: renewing every second made 50 racing creates on FerretDB (where an update takes a
 * lock document) slow themselves down with their own renewals.
 */
export const LEASE_MS = 3_000;
const RENEW_EVERY_MS = 2_000;
/**
 * A repeat waiting for the same call's run reads the ledger again after 100 ms, then twice as
 * long each time up to a second: a live runner's reply is picked up at once, and the repeats of
 * a killed process's calls (all redelivered together, each waiting out its lease) do not flood
 * the store with reads while the survivor has their work to do.
 */
const FIRST_POLL_MS = 100;
const LAST_POLL_MS = 1_000;

export interface OnceRequest {
  pattern: string;
  principal: Principal;
  /** The validated payload: unknown keys are gone, so they do not make a body "different". */
  payload: unknown;
  callId?: string | undefined;
  idempotencyKey?: string | undefined;
  deadline?: number | undefined;
}

/**
 * Runs `run` at most once per key when the request asks for it (a `callId`, or an
 * `Idempotency-Key` of a merchant's or consumer's request) and a ledger is present; else just
 * runs it. A repeat of a finished call gets the stored reply, marked `replayed` when it comes
 * from another HTTP request with the same key (docs/api-notes.md, Requests); a repeat of the same call (a
 * redelivery) waits for the running one; another request with a key that is running is 409
 * `idempotency_key_in_use`; the same key with a different body is 400 `idempotency_key_reused`.
 * Resolves `null` when the caller's deadline passed while waiting (nobody reads the reply).
 */
export async function runOnce(
  ledger: ReplyLedger | undefined,
  request: OnceRequest,
  logger: Logger,
  run: (runId: string | undefined) => Promise<RpcReplyEnvelope>,
): Promise<RpcReplyEnvelope | null> {
  const scope = request.idempotencyKey === undefined ? undefined : ownerScope(request.principal);
  if (!ledger || (request.callId === undefined && scope === undefined)) return run(request.callId);
  const httpKey = scope !== undefined;
  const key = httpKey ? `key:${scope}:${request.idempotencyKey}` : `call:${request.callId}`;
  const callId = request.callId ?? randomUUID();
  const fingerprint = requestFingerprint(request.pattern, request.payload);
  const ttl = httpKey ? IDEMPOTENCY_KEY_TTL_MS : CALL_ID_TTL_MS;
  const waitUntil = request.deadline ?? Date.now() + 10_000;
  let runId = callId;
  let lastRead = false;
  for (let poll = FIRST_POLL_MS; ; poll = Math.min(LAST_POLL_MS, poll * 2)) {
    const holder = await ledger.claim(key, fingerprint, callId, Date.now() + LEASE_MS, Date.now() + ttl);
    if (holder === null) break;
    if (holder.state === "resumed") {
      // The first runner stopped renewing: dead, or stalled and about to carry on. Running as
      // that run lets handlers that key their effects on the run id find its effects.
      logger.warn({ pattern: request.pattern, runId: holder.runId }, "reply ledger: took over a run whose lease ran out");
      runId = holder.runId;
      break;
    }
    if (holder.fingerprint !== fingerprint) {
      return refusal(new AppError("idempotency_key_reused", "this Idempotency-Key was used with a different request; use a new key", { param: "Idempotency-Key" }));
    }
    if (holder.state === "done") return holder.callId === callId ? holder.reply : { ...holder.reply, replayed: true };
    if (holder.callId !== callId) {
      return refusal(new AppError("idempotency_key_in_use", "a request with this Idempotency-Key is still running; retry once it has finished"));
    }
    // The same call runs elsewhere (this is a redelivery or a retry of it): wait for its reply.
    if (lastRead || Date.now() > waitUntil) return null;
    // A wait that reaches the deadline is cut to just past it, and the read after it is the last
    // whatever the clock then says: a timer may wake a millisecond early by Date.now(), and one
    // more read would follow for nothing.
    const left = waitUntil - Date.now();
    lastRead = left <= poll;
    await sleep(lastRead ? left + 1 : poll);
  }
  // The lease only tells repeats whether to wait; at most once rests on the run id above. So a
  // lost renewal is worth a warning (a repeat may now run alongside), not a failed call.
  const renew = setInterval(() => {
    ledger.renew(key, callId, Date.now() + LEASE_MS).then(
      (held) => held || logger.warn({ pattern: request.pattern, runId }, "reply ledger: another run took over this call's claim"),
      (err: unknown) => logger.warn({ err, pattern: request.pattern }, "reply ledger: could not renew a running call's lease"),
    );
  }, RENEW_EVERY_MS);
  let reply: RpcReplyEnvelope;
  try {
    reply = await run(runId);
  } finally {
    clearInterval(renew);
  }
  // Recorded behind the reply, not before it: a repeat arriving in between finds the claim and
  // waits for the record (or, with another call's key, is told the key is in use). If recording
  // fails, the work is still done and its reply goes out; a repeat takes the claim over once its
  // lease ends, as after a crash.
  const record = saysRetry(reply) ? ledger.release(key, callId) : ledger.finish(key, callId, fingerprint, reply, Date.now() + ttl);
  record.catch((err: unknown) => logger.warn({ err, pattern: request.pattern }, "reply ledger: could not record a finished call"));
  return reply;
}

/**
 * An answer that tells the caller to come back (a 5xx, a 429, anything with `retryAfter`, a
 * 409 "in progress") describes a moment, not the request's outcome: stored, it would be replayed
 * for 24 h to the very retry it invites. Such a claim is released instead, so the retry runs.
 */
export function saysRetry(reply: RpcReplyEnvelope): boolean {
  if (reply.ok) return false;
  const { code, retryAfter } = reply.error;
  return retryAfter !== undefined || code === "transfer_in_progress" || code === "idempotency_key_in_use" || statusOf(code) >= 429;
}

/** What makes two requests "the same" for a key: the operation and its validated payload. */
export function requestFingerprint(pattern: string, payload: unknown): string {
  return createHash("sha256").update(`${pattern}\n${JSON.stringify(payload)}`).digest("base64url");
}

/** Whose keys these are (docs/api-notes.md, Requests: the credential's owner); none for anonymous calls. */
function ownerScope(principal: Principal): string | undefined {
  switch (principal.kind) {
    case "merchant":
      return `merchant:${principal.merchantId}`;
    case "user":
      return `user:${principal.userId}`;
    case "admin":
      return "admin";
    case "service":
      return `service:${principal.service}`;
    case "anonymous":
      return undefined;
  }
}

function refusal(error: AppError): RpcReplyEnvelope {
  return { ok: false, error: error.toPayload() };
}
