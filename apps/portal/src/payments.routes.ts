import { listConsumerPaymentsOp, listRefundsOp, type RefundRecord } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { callService, type WebContext } from "@payrail/web";
import { paymentsTable } from "./payments.view.ts";
import { cursorParam } from "./portal-params.ts";
import { sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";

const PAGE_SIZE = 20;
/** The consumer's newest refunds, matched to the page's payments (a consumer with more has older refunds on older payments). */
const REFUNDS = 100;

/** The consumer's payments at every merchant, newest first, a page at a time, with the refunds asked of each. */
export async function paymentsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  app.get(`${PORTAL_PATH}/payments`, { schema: { hide: true }, preValidation: portalUser(ctx) }, async (request, reply) => {
    const cursor = cursorParam(request.query);
    const [list, refunds] = await Promise.all([
      callService(ctx, request, listConsumerPaymentsOp, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
      callService(ctx, request, listRefundsOp, { limit: REFUNDS }),
    ]);
    const byPayment = new Map<string, RefundRecord[]>();
    // Newest first from the service: each payment's refunds are listed oldest first.
    for (const r of [...refunds].reverse()) {
      const list = byPayment.get(r.transaction_uuid);
      if (list) list.push(r);
      else byPayment.set(r.transaction_uuid, [r]);
    }
    return sendPage(reply, { title: "Payments", body: paymentsTable(list.data, list.next_cursor, byPayment), sandbox: ctx.sandbox, session: sessionOf(request, reply, "payments") });
  });
}
