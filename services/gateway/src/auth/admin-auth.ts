import { AppError } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";

/** Checks `x-admin-token` in constant time (comparing hashes keeps lengths equal). */
export function checkAdminToken(expected: string, request: FastifyRequest): void {
  const header = request.headers["x-admin-token"];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given) throw new AppError("admin_token_invalid", "the x-admin-token header is required");
  const ok = timingSafeEqual(Buffer.from(sha256Hex(given), "hex"), Buffer.from(sha256Hex(expected), "hex"));
  if (!ok) throw new AppError("admin_token_invalid", "the x-admin-token is not valid");
}
