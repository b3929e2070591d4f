import type { FastifyRequest } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";
import { authenticateMerchant } from "./merchant-auth.ts";
import { authenticateUser } from "./user-auth.ts";

/*
 * Route hooks that resolve the caller before the body is validated: an unauthenticated caller
 * learns nothing about what the body should have been.
 */

/** `api-key` → the merchant. */
export const merchantAuth = (ctx: GatewayContext) => async (request: FastifyRequest) => {
  request.principal = await authenticateMerchant(ctx, request);
};

/** `Authorization` → the consumer. */
export const userAuth = (ctx: GatewayContext) => async (request: FastifyRequest) => {
  request.principal = await authenticateUser(ctx, request);
};
