import { listConsumerPaymentsOp } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import type { GatewayContext } from "../gateway-context.ts";
import { callService } from "../http/call-service.ts";
import { paymentsTable } from "./payments.view.ts";
import { cursorParam } from "./portal-params.ts";
import { sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";

const PAGE_SIZE = 20;

/** The consumer's payments at every merchant, newest first, a page at a time. */
export async function paymentsRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  app.get(`${PORTAL_PATH}/payments`, { schema: { hide: true }, preValidation: portalUser(ctx) }, async (request, reply) => {
    const cursor = cursorParam(request.query);
    const list = await callService(ctx, request, listConsumerPaymentsOp, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    return sendPage(reply, { title: "Payments", body: paymentsTable(list.data, list.next_cursor), sandbox: ctx.sandbox, session: sessionOf(request, reply, "payments") });
  });
}
