import { createHash } from "node:crypto";
import { randomBase62, sha256Hex } from "@payrail/runtime";

/** `sk_test_`/`sk_live_` + 48 base62 characters (docs/api-notes.md, Identifiers and times): about 285 random bits. */
export const API_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{48}$/;
const PREFIX_LENGTH = "sk_test_".length + 8;

export interface NewApiKey {
  key: string;
  hash: string;
  prefix: string;
  livemode: boolean;
}

/**
 * A new key: random, or, given a `seed` (a secret derived from the call's run id), the same key
 * for every run of that call, so a second run stores nothing new and answers what the first did.
 */
export function newApiKey(livemode: boolean, seed?: Buffer): NewApiKey {
  const key = `sk_${livemode ? "live" : "test"}_${seed ? seededBase62(seed, 48) : randomBase62(48)}`;
  return { key, hash: sha256Hex(key), prefix: key.slice(0, PREFIX_LENGTH), livemode };
}

/** Hash used to look a presented key up; null for strings that cannot be a key. */
export function hashPresentedKey(presented: string): string | null {
  return API_KEY_PATTERN.test(presented) ? sha256Hex(presented) : null;
}

/** `length` base62 characters drawn from SHA-256(seed, counter) blocks, without modulo bias. */
function seededBase62(seed: Buffer, length: number): string {
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  for (let block = 0; out.length < length; block++) {
    for (const byte of createHash("sha256").update(seed).update(String(block)).digest()) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
