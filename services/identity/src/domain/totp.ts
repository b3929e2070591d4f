import { Secret, TOTP } from "otpauth";

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
const ISSUER = "Payrail";

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secretBase32) });
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans. */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/**
 * The time step a six-digit code is valid for at `now`, or null. One step either side is
 * accepted for clock drift between the phone and the server; the caller still refuses a step
 * at or before the last one taken, so a code works once.
 */
export function totpStepOf(secretBase32: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32, "").validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}
