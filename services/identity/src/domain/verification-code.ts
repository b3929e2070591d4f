import { createHmac, randomInt } from "node:crypto";
import { constantTimeEqualHex } from "@payrail/runtime";

/** The code rules (docs/api-notes.md, Credentials). */
export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WRONG_ATTEMPTS = 5;
export const RESEND_INTERVAL_MS = 30_000;
export const SENDS_PER_HOUR = 5;
export const HOUR_MS = 60 * 60_000;

/** Six digits from the CSPRNG, leading zeros kept: 10^6 equally likely codes. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * HMAC-SHA256 under the service's code key, with the phone as context. A plain hash of a
 * 6-digit code falls to a million guesses; keyed, a copy of the database alone does not
 * reveal live codes. The phone binds a hash to its number, so a code is never good for another.
 */
export function hashCode(key: Buffer, phone: string, code: string): string {
  return createHmac("sha256", key).update(`${phone}\n${code}`).digest("hex");
}

/** Compares in constant time; whatever was presented is hashed, so timing tells nothing. */
export function codeMatches(key: Buffer, phone: string, presented: string, storedHash: string): boolean {
  return constantTimeEqualHex(hashCode(key, phone, presented.trim()), storedHash);
}

/**
 * Sandbox: merchant M's own code for the verification `codeId` of a phone, derived under the
 * code key (so never stored, and the same at every read by M, as a text would be), six digits
 * like a texted one. `round` picks another code when the first equals another reader's.
 */
export function scopedCode(key: Buffer, phone: string, codeId: string, merchantId: string, round: number): string {
  const mac = createHmac("sha256", key).update(`sandbox-scope\n${phone}\n${codeId}\n${merchantId}\n${round}`).digest();
  // 48 bits modulo 10^6: a bias below 4e-9.
  return String(mac.readUIntBE(0, 6) % 1_000_000).padStart(6, "0");
}

/** Whether `presented` is `expected`, in constant time (both hashed under the key first). */
export function sameCode(key: Buffer, phone: string, presented: string, expected: string): boolean {
  return codeMatches(key, phone, presented, hashCode(key, phone, expected));
}

/** The text the consumer receives. */
export function codeMessage(code: string): string {
  return `Your Payrail verification code is ${code}. It expires in 10 minutes.`;
}
