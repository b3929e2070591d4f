import { randomToken, sha256Hex } from "@payrail/runtime";

/** 32 random bytes, base64url (docs/api-notes.md, Identifiers and times): 43 characters. */
const AUTH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newAuthToken(): { token: string; hash: string } {
  const token = randomToken(32);
  return { token, hash: sha256Hex(token) };
}

/** Hash used to look a presented token up; null for strings that cannot be a token. */
export function hashPresentedToken(presented: string): string | null {
  return AUTH_TOKEN_PATTERN.test(presented) ? sha256Hex(presented) : null;
}
