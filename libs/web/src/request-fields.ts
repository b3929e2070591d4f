// The pages' form plugins (page-forms.ts) decorate the app and the reply: their types reach every app with this kit.
/// <reference types="@fastify/csrf-protection" preserve="true" />
/// <reference types="@fastify/cookie" preserve="true" />
import type { Principal } from "@payrail/contracts";

/**
 * The fields every request carries through the gateway, read and written by the API's routes and
 * the apps' pages alike; the gateway's plugins decorate them (request-log, idempotency), the
 * auth hooks set `principal`; and the route schema's `hide`, which the apps' pages set.
 */
declare module "fastify" {
  interface FastifyRequest {
    /** Set by the route's auth hook; services get it on the RPC envelope. */
    principal: Principal;
    /** RPC patterns this request called, in order (`callService`); null when it called none. */
    rpcCalls: string[] | null;
    /** The error code this request was answered with (`sendAppError`); null on success. */
    errorCode: string | null;
    /** The service answered with the stored reply of an earlier request with this Idempotency-Key. */
    idempotentReplayed: boolean;
  }
  interface FastifySchema {
    /** Left out of the OpenAPI document (the gateway's @fastify/swagger reads it, as declared there): pages are not the API. */
    hide?: boolean;
  }
}
