/** A consumer, created by the first successful verification of its phone. */
export interface UserRecord {
  /** 32 lowercase hex (docs/api-notes.md, Identifiers and times). */
  _id: string;
  /** E.164; unique, so concurrent first verifications make one user. */
  phone: string;
  createdAt: string;
}

/**
 * The current verification code of one phone (`_id`): a new code overwrites the old, so
 * there is never more than one. Every write pins `codeId`, so a write meant for an old code
 * cannot touch the one that replaced it.
 */
export interface VerificationCodeRecord {
  _id: string;
  codeId: string;
  /** HMAC of the code (see `hashCode`); null once consumed or withdrawn. */
  codeHash: string | null;
  expiresAt: string;
  /** Wrong attempts on this code; at MAX_WRONG_ATTEMPTS the code is dead. */
  attempts: number;
  consumedAt: string | null;
  /** The resend history (see `decideResend`). */
  lastSentAt: string | null;
  sentAt: string[];
  /**
   * Sandbox: the merchants that read this code back, each given its own code (`scopedCode`,
   * derived, never stored) that yields a token of that merchant only. Emptied by a new code.
   */
  scopes?: Record<string, ScopedCode>;
  /** How many merchants read this code: each reader's write is pinned to it (`addScope`). */
  scopeCount?: number;
  createdAt: string;
}

/** One merchant's code of a sandbox verification (docs/decisions/0001-sandbox-tenancy.md). */
export interface ScopedCode {
  /** Which derivation: the first one that differs from the other readers' codes. */
  round: number;
  /** Set once this merchant's code was exchanged for a token. */
  consumedAt: string | null;
}

/** An auth token, stored only as the SHA-256 of the token (`_id`). */
export interface AuthTokenRecord {
  _id: string;
  /** Public name of the token (the principal's `tokenId`): logout revokes by it. */
  tokenId: string;
  userId: string;
  phone: string;
  /** A sandbox token: the only merchant whose records it reaches. Absent: a live token. */
  merchantId?: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}
