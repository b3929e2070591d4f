import { randomBytes } from "node:crypto";
import { sha256Hex } from "@payrail/runtime";

/** 32 letters and digits without look-alikes (no i, l, o, 1): five bits a character. */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz023456789";
export const RECOVERY_CODE_COUNT = 10;

/**
 * Ten recovery codes of 16 characters (80 random bits each, so a plain SHA-256 is enough to store them), written `xxxx-xxxx-xxxx-xxxx`.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const letters = [...randomBytes(16)].map((b) => ALPHABET[b & 31]).join("");
    return letters.match(/.{4}/g)!.join("-");
  });
}

/** The stored form of a code as typed: case and dashes do not matter; null when it cannot be one. */
export function recoveryCodeHash(userId: string, typed: string): string | null {
  const letters = typed.toLowerCase().replace(/[\s-]/g, "");
  if (!/^[a-z0-9]{16}$/.test(letters)) return null;
  // The user id as salt: the same code of two users hashes differently.
  return sha256Hex(`${userId}:${letters}`);
}
