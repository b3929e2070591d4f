import type { RequestMeta } from "../domain/ports/checkouts.port.ts";

/**
 * The request as payments asks it of another service: on its own account, never on the
 * principal it serves (the broker accepts only that from payments' users, for the operations
 * `SERVICE_CALLS` lists); the request id travels on for the logs.
 */
export const asPayments = (meta: RequestMeta): RequestMeta => ({ requestId: meta.requestId, principal: { kind: "service", service: "payments" } });
