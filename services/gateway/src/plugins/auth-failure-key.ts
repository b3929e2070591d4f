import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";

/** The headers a credential travels in (docs/api-notes.md, Credentials), and the transfer webhooks' signature. */
const CREDENTIAL_HEADERS = ["api-key", "authorization", "x-admin-token", "link-token", "x-request-signature-sha-256"] as const;

/**
 * What a request presented as its credential: its credential headers, or for the routes that
 * take none (Verify Code) the phone in the body, so that one consumer's wrong codes count
 * against that phone and not against everyone behind the same address.
 */
function presentedCredential(request: FastifyRequest): string {
  const parts: string[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) parts.push(`${name}=${String(value)}`);
  }
  if (parts.length === 0 && request.body !== null && typeof request.body === "object") {
    const body = request.body as Record<string, unknown>;
    const phone = body.phone ?? body.phone_number;
    if (typeof phone === "string") parts.push(`phone=${phone}`);
  }
  return parts.join("\n");
}

/**
 * The failed-authentication counter's key (docs/api-notes.md, Limits): the client address (fastify's
 * `request.ip`, which TRUST_PROXY decides) and a hash of the presented credential. A credential
 * never sits in memory or a log in clear; a hash of 128 bits keeps keys apart.
 */
export function authFailureKey(request: FastifyRequest): string {
  const digest = createHash("sha256").update(presentedCredential(request)).digest("base64url").slice(0, 22);
  return `auth-failures:${request.ip}:${digest}`;
}
