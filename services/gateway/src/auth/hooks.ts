import { AppError } from "@payrail/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";
import { checkAdminToken } from "./admin-auth.ts";
import { authenticateMerchant, cachedMerchant } from "./merchant-auth.ts";
import { authenticateUser, isConsumerToken } from "@payrail/web";

/*
 * Route hooks that resolve the caller before the body is validated: an unauthenticated caller
 * learns nothing about what the body should have been.
 */

/**
 * `api-key` → the merchant. With no api-key but a valid consumer token, the caller is known
 * and not allowed here: 403 (docs/api-notes.md, Answers and errors), not "credential missing". Any other token (absent,
 * unknown, or not checkable now) leaves the 401 as it was.
 */
export const merchantAuth = (ctx: GatewayContext) => (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
  // Most requests carry a key this gateway resolved moments ago: answered without a promise.
  const cached = cachedMerchant(ctx, request);
  if (cached) {
    request.principal = cached;
    return done();
  }
  resolveMerchant(ctx, request).then(() => done(), done);
};

async function resolveMerchant(ctx: GatewayContext, request: FastifyRequest): Promise<void> {
  try {
    request.principal = await authenticateMerchant(ctx, request);
  } catch (err) {
    if (err instanceof AppError && err.code === "api_key_missing" && (await isConsumerToken(ctx, request))) {
      throw new AppError("permission_denied", "a consumer's Authorization token cannot be used here; send the merchant's api-key");
    }
    throw err;
  }
}

/** `Authorization` → the consumer. */
export const userAuth = (ctx: GatewayContext) => async (request: FastifyRequest) => {
  request.principal = await authenticateUser(ctx, request);
};

/**
 * The merchant refund endpoints (docs/api-notes.md, Credentials): a valid `api-key` → the merchant (it decides when
 * both headers are sent); else `Authorization` → the user, whom refunds then checks is an
 * operator of the refund's merchant. A refused api-key with no Authorization to fall back on
 * is its own 401; a dependency failure (503) is never taken for a wrong key.
 */
export const merchantOrOperatorAuth = (ctx: GatewayContext) => async (request: FastifyRequest) => {
  const hasKey = request.headers["api-key"] !== undefined;
  const hasToken = request.headers.authorization !== undefined;
  if (!hasKey && !hasToken) throw new AppError("api_key_missing", "send the merchant's api-key, or an operator's Authorization token");
  if (hasKey) {
    try {
      request.principal = await authenticateMerchant(ctx, request);
      return;
    } catch (err) {
      if (!hasToken || !(err instanceof AppError) || err.status !== 401) throw err;
    }
  }
  request.principal = await authenticateUser(ctx, request);
};

/** `x-admin-token` → the admin: one of `tokens` (ADMIN_TOKEN, the CLI's token). */
export const adminAuth = (tokens: readonly string[]) => async (request: FastifyRequest) => {
  checkAdminToken(tokens, request);
  request.principal = { kind: "admin" };
};
