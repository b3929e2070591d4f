import type { RpcReplyEnvelope } from "@payrail/contracts";

/** What a ledger knows of a key when it cannot claim it for the asking call. */
export type LedgerHolder =
  | { state: "running"; callId: string; fingerprint: string }
  | { state: "done"; callId: string; fingerprint: string; reply: RpcReplyEnvelope }
  /** Claimed by taking over a run whose lease ran out: run on, as `runId` (the first run's call id). */
  | { state: "resumed"; runId: string };

/**
 * Where a serving process remembers the requests it ran at most once: by the envelope's
 * `callId` (a redelivered or retried message) or the caller's `Idempotency-Key`. Implemented
 * over a database by libs/store (`createReplyLedger`), so every instance of a service sees the
 * same records; libs/messaging only holds the port, as it imports no database driver.
 *
 * Every method is one conditional write or one read by `_id`, so racing instances agree.
 */
export interface ReplyLedger {
  /**
   * Claims `key` for the call `callId` until `leaseUntil` (epoch ms), to be forgotten at
   * `expiresAt`. Resolves `null` when claimed afresh (run the handler as `callId`, then `finish`
   * or `release`), `resumed` when it took over the same request's claim whose lease ran out (its
   * runner died or stalled: run as the first run's `runId`); else the holder: a call still
   * running (under a live lease) or a finished call's reply. An expired record counts as absent.
   */
  claim(key: string, fingerprint: string, callId: string, leaseUntil: number, expiresAt: number): Promise<LedgerHolder | null>;
  /** Extends the lease of the call holding `key` while it still runs; false when another took it over. */
  renew(key: string, callId: string, leaseUntil: number): Promise<boolean>;
  /**
   * Stores the reply of a call that claimed `key` (the same request: same fingerprint). The
   * first reply stored wins: a runner that was taken over and finishes late changes nothing.
   */
  finish(key: string, callId: string, fingerprint: string, reply: RpcReplyEnvelope, expiresAt: number): Promise<void>;
  /** Forgets a claim whose reply is not worth keeping (a retryable failure), so a retry runs. */
  release(key: string, callId: string): Promise<void>;
}
