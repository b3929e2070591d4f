import { createHmac, timingSafeEqual } from "node:crypto";

/** The header Dwolla signs each webhook request with. */
export const DWOLLA_SIGNATURE_HEADER = "x-request-signature-sha-256";

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/**
 * Whether `signatureHeader` is Dwolla's signature of `rawBody`: HMAC-SHA256 keyed with the
 * webhook secret, hex. Checked on the raw bytes as received (re-serialised JSON would differ)
 * and compared in constant time. Never throws: anything missing or malformed is `false`.
 */
export function verifyDwollaSignature(secret: string, rawBody: Buffer | string, signatureHeader: string | undefined): boolean {
  // An empty secret would make the signature computable by anyone: treat it as "cannot verify".
  if (typeof secret !== "string" || secret.length === 0) return false;
  if (typeof signatureHeader !== "string" || !SHA256_HEX.test(signatureHeader.trim())) return false;
  if (typeof rawBody !== "string" && !Buffer.isBuffer(rawBody)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(signatureHeader.trim(), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
