import { AppError, getConsumerReceiptOp, listConsumerReceiptsOp, NoticeId } from "@payrail/contracts";
import type { FastifyInstance } from "fastify";
import { callService, type WebContext } from "@payrail/web";
import { sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";
import { receiptDetail, receiptsTable } from "./receipts.view.ts";

const PAGE_SIZE = 20;

/** A receipt id from a path or a page link; anything else is as absent as another consumer's receipt. */
function receiptIdOf(value: unknown, param: string): string {
  if (NoticeId.safeParse(value).success) return value as string;
  throw param === "id" ? new AppError("resource_missing", "There is no such receipt in your account.") : new AppError("parameter_invalid", "This page link is not valid.", { param });
}

/** Receipts: what the consumer was sent when a payment went through, at every merchant, newest first; and each one's words. */
export async function receiptsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const auth = { schema: { hide: true }, preValidation: portalUser(ctx) };

  app.get(`${PORTAL_PATH}/receipts`, auth, async (request, reply) => {
    const after = (request.query as Record<string, unknown>)["starting_after"];
    const cursor = after === undefined ? {} : { starting_after: receiptIdOf(after, "starting_after") };
    const list = await callService(ctx, request, listConsumerReceiptsOp, { limit: PAGE_SIZE, ...cursor });
    return sendPage(reply, { title: "Receipts", body: receiptsTable(list.data, list.has_more), sandbox: ctx.sandbox, session: sessionOf(request, reply, "receipts") });
  });

  app.get(`${PORTAL_PATH}/receipts/:id`, auth, async (request, reply) => {
    const id = receiptIdOf((request.params as Record<string, unknown>)["id"], "id");
    const receipt = await callService(ctx, request, getConsumerReceiptOp, { receipt_id: id });
    return sendPage(reply, { title: receipt.subject, body: receiptDetail(receipt), sandbox: ctx.sandbox, session: sessionOf(request, reply, "receipts") });
  });
}
