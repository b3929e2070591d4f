import { z } from "zod";
import { defineOperation, type Operation } from "../rpc/operation.ts";

const PingRequest = z.object({});
const PingResponse = z.object({ service: z.string(), ok: z.literal(true) });

/**
 * `<service>.ping`: every service answers it, so readiness can check that each service is
 * consuming its queue, not only that the broker is up.
 */
export function pingOp(service: string): Operation<typeof PingRequest, typeof PingResponse> {
  return defineOperation(`${service}.ping`, PingRequest, PingResponse);
}
