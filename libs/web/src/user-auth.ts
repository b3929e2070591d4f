import { ANONYMOUS, AppError, resolveAuthTokenOp, type UserPrincipal } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { WebContext } from "./web-context.ts";
import { callService } from "./call-service.ts";

/** `Token <t>`, `Bearer <t>` or the bare `<t>` (docs/api-notes.md, Requests); null when the header is absent. */
export function authTokenFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^\s*(?:(?:Token|Bearer)\s+)?(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

/**
 * Resolves `Authorization` to its consumer through identity (never cached: logout must take
 * effect at once). The rate-limit plugin counts the call against the token afterwards.
 */
export async function authenticateUser(ctx: WebContext, request: FastifyRequest): Promise<UserPrincipal> {
  const token = authTokenFrom(request);
  if (token === null) throw new AppError("auth_token_missing", "the Authorization header is required");
  if (token === "") throw new AppError("auth_token_invalid", "the Authorization header is not valid");
  return userOfToken(ctx, request, token);
}

/** An auth token (from `Authorization`, or the consumer portal's session cookie) → its consumer, through identity. */
export async function userOfToken(ctx: WebContext, request: FastifyRequest, token: string): Promise<UserPrincipal> {
  const resolved = await callService(ctx, request, resolveAuthTokenOp, { auth_token: token.slice(0, 512) }, ANONYMOUS);
  request.log = request.log.child({ userId: resolved.user_id });
  const user: UserPrincipal = { kind: "user", userId: resolved.user_id, phone: resolved.phone, tokenId: resolved.token_id };
  // A sandbox token reaches one merchant's records only (docs/decisions/0001-sandbox-tenancy.md).
  if (resolved.merchant_id !== undefined) user.merchantId = resolved.merchant_id;
  return user;
}

/**
 * Whether `Authorization` holds a live consumer token, for telling "not allowed here" (403)
 * from "no credential" (401) on merchant routes. Any failure to resolve it (unknown token,
 * identity unreachable) is a no: the caller still lacks the credential the route needs.
 * Not counted against the token's rate limit: nothing is served with it (the principal stays unset).
 */
export async function isConsumerToken(ctx: WebContext, request: FastifyRequest): Promise<boolean> {
  const token = authTokenFrom(request);
  if (!token) return false;
  try {
    await callService(ctx, request, resolveAuthTokenOp, { auth_token: token.slice(0, 512) }, ANONYMOUS);
    return true;
  } catch {
    return false;
  }
}
