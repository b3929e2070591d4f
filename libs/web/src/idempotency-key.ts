import { AppError } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";

/** An Idempotency-Key is 1–255 printable characters (docs/api-notes.md, Requests). */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` (POST only; other methods are idempotent already and ignore
 * it, as any unused header), or undefined; a malformed one is 400 before anything runs.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  if (request.method !== "POST") return undefined;
  const header = request.headers["idempotency-key"];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !IDEMPOTENCY_KEY.test(key)) {
    throw new AppError("parameter_invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters", { param: "Idempotency-Key" });
  }
  return key;
}
