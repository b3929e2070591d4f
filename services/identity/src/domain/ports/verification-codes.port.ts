import type { VerificationCodeRecord } from "../consumer.entity.ts";

/** A new code as `replace` writes it. */
export interface NewCode {
  codeId: string;
  codeHash: string;
  expiresAt: string;
  sentAt: string[];
  now: string;
}

/**
 * Storage of the one current verification code per phone. Every method that changes a code is
 * a single conditional write: it acts only when the record is still in the state the caller
 * read, and answers null (or false) when a concurrent request got there first.
 */
export interface VerificationCodesPort {
  find(phone: string): Promise<VerificationCodeRecord | null>;
  /**
   * Stores a new code for the phone, replacing the current one, if the current one is still
   * `expectedCodeId` (null: the phone has no record yet). False when another send won.
   */
  replace(phone: string, expectedCodeId: string | null, code: NewCode): Promise<boolean>;
  /** Counts one wrong attempt on a live code (attempts below the limit); null if it is not live. */
  countWrongAttempt(phone: string, codeId: string, maxAttempts: number): Promise<VerificationCodeRecord | null>;
  /** Consumes a live, unexpired code; false if another request consumed it or it died first. */
  consume(phone: string, codeId: string, maxAttempts: number, now: string): Promise<boolean>;
  /**
   * Withdraws a code the SMS provider did not take: it can no longer be used, and the 30-second
   * wait goes back to `lastSentAt` (the hourly count keeps the send).
   */
  withdraw(phone: string, codeId: string, lastSentAt: string | null): Promise<void>;
  /**
   * Sandbox: records that `merchantId` read the code `codeId` (its own code being derivation
   * `round`), if no other merchant was added since the caller read `expectedCount` readers.
   * False when the code was replaced or another reader got there first.
   */
  addScope(phone: string, codeId: string, expectedCount: number | null, merchantId: string, round: number): Promise<boolean>;
  /** Consumes one merchant's live, unexpired code; false if it was consumed, replaced or died first. */
  consumeScope(phone: string, codeId: string, merchantId: string, round: number, maxAttempts: number, now: string): Promise<boolean>;
}
