import { AppError } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";

/** Checks `x-admin-token` against each accepted token in constant time (comparing hashes keeps lengths equal). */
export function checkAdminToken(accepted: readonly string[], request: FastifyRequest): void {
  const header = request.headers["x-admin-token"];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given) throw new AppError("admin_token_invalid", "the x-admin-token header is required");
  const hash = Buffer.from(sha256Hex(given), "hex");
  // Every token is compared, so the time taken does not say which one (if any) matched.
  const matches = accepted.map((token) => timingSafeEqual(hash, Buffer.from(sha256Hex(token), "hex")));
  if (!matches.includes(true)) throw new AppError("admin_token_invalid", "the x-admin-token is not valid");
}
