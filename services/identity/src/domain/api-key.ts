import { randomBase62, sha256Hex } from "@payrail/runtime";

/** `sk_test_`/`sk_live_` + 48 base62 characters (API.md §3): about 285 random bits. */
export const API_KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{48}$/;
const PREFIX_LENGTH = "sk_test_".length + 8;

export interface NewApiKey {
  key: string;
  hash: string;
  prefix: string;
  livemode: boolean;
}

export function newApiKey(livemode: boolean): NewApiKey {
  const key = `sk_${livemode ? "live" : "test"}_${randomBase62(48)}`;
  return { key, hash: sha256Hex(key), prefix: key.slice(0, PREFIX_LENGTH), livemode };
}

/** Hash used to look a presented key up; null for strings that cannot be a key. */
export function hashPresentedKey(presented: string): string | null {
  return API_KEY_PATTERN.test(presented) ? sha256Hex(presented) : null;
}
