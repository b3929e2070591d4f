import { HOUR_MS, RESEND_INTERVAL_MS, SENDS_PER_HOUR } from "./verification-code.ts";

/** What the resend rule needs to know of a phone's past sends. */
export interface SendHistory {
  lastSentAt: string | null;
  /** Sends in the last hour, oldest first (older ones may linger until the next send). */
  sentAt: string[];
}

export type ResendDecision = { allowed: true; sentAt: string[] } | { allowed: false; retryAfterMs: number };

/**
 * At most one code per 30 s and 5 per sliding hour per phone (docs/api-notes.md, Credentials). When refused, says
 * how long until both rules allow a send; when allowed, gives the history to store with it.
 */
export function decideResend(history: SendHistory | null, now: number): ResendDecision {
  const recent = (history?.sentAt ?? []).filter((t) => Date.parse(t) > now - HOUR_MS);
  let waitMs = 0;
  if (history?.lastSentAt) waitMs = Math.max(waitMs, Date.parse(history.lastSentAt) + RESEND_INTERVAL_MS - now);
  if (recent.length >= SENDS_PER_HOUR) {
    // The send that must leave the window before another fits in it.
    const oldest = recent[recent.length - SENDS_PER_HOUR]!;
    waitMs = Math.max(waitMs, Date.parse(oldest) + HOUR_MS - now);
  }
  if (waitMs > 0) return { allowed: false, retryAfterMs: waitMs };
  return { allowed: true, sentAt: [...recent, new Date(now).toISOString()].slice(-SENDS_PER_HOUR) };
}
