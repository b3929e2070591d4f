import { createHmac, randomInt } from "node:crypto";
import { constantTimeEqualHex } from "@payrail/runtime";

/** The code rules of API.md §5. */
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

/** The text the consumer receives. */
export function codeMessage(code: string): string {
  return `Your Payrail verification code is ${code}. It expires in 10 minutes.`;
}

/** The code in a text made by `codeMessage` (the sandbox reads its outbox back with this). */
export function codeFromMessage(text: string): string | null {
  return /\b(\d{6})\b/.exec(text)?.[1] ?? null;
}
