import { createHash, hash, randomBytes, randomFillSync, randomUUID, timingSafeEqual } from "node:crypto";

/**
 * Random bytes for ids, drawn from a pool refilled 4 KiB at a time from the same CSPRNG:
 * one `randomFillSync` per 256 ids instead of per id, which showed in the profile of a
 * request (every request gets a `req_` id). Like node's own randomUUID cache. Never used
 * for secrets (randomToken and randomBase62 draw afresh).
 */
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

function pooledHex(bytes: number): string {
  if (poolOffset + bytes > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const hex = POOL.toString("hex", poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/** `prefix` + 32 lowercase hex: 128 random bits (docs/api-notes.md, Identifiers and times). */
export function prefixedHexId(prefix: string): string {
  return prefix + pooledHex(16);
}

/**
 * `prefix` + 32 lowercase hex derived from `seed`: the id every run of one call gives the record
 * it creates, when the seed holds the call's run id (`ctx.callId`). A second run of the call (its
 * first runner stalled past its lease) inserts the same id, finds the first run's record and
 * answers from it, instead of creating a second.
 */
export function runScopedHexId(prefix: string, seed: string): string {
  return prefix + createHash("sha256").update(seed).digest("hex").slice(0, 32);
}

/** A bearer secret: `bytes` random bytes, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` base62 characters without modulo bias (rejection sampling). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * Hash of a high-entropy secret for storage and lookup. Secrets here are random with at least
 * 128 bits, so a fast hash is enough (no password stretching needed) and lets us index by it.
 */
export function sha256Hex(secret: string): string {
  // node's one-shot hash: a third of createHash().update().digest()'s cost, and every
  // api-key request pays one (the gateway's key cache is keyed by it).
  return hash("sha256", secret, "hex");
}

export function constantTimeEqualHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, "hex");
  const bb = Buffer.from(b, "hex");
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export { randomUUID };

export function nowIso(): string {
  return new Date().toISOString();
}
