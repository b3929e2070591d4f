import { AppError, cancelSubscriptionByTransactionOp, getSubscriptionMandateOp, listConsumerSubscriptionsOp, type SubscriptionMandate } from "@payrail/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { callService, csrfToken, type WebContext } from "@payrail/web";
import { cursorParam, transactionUuidParam } from "./portal-params.ts";
import { sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";
import { cancelConfirmation, subscriptionsList } from "./subscriptions.view.ts";

const PAGE_SIZE = 10;

/** A subscription's mandate, or null while it has none (its first charge not yet authorized). */
async function mandateOf(ctx: WebContext, request: FastifyRequest, transactionUuid: string): Promise<SubscriptionMandate | null> {
  try {
    return await callService(ctx, request, getSubscriptionMandateOp, { subscription_transaction_uuid: transactionUuid }, request.principal);
  } catch (err) {
    if (err instanceof AppError && err.code === "mandate_not_found") return null;
    throw err;
  }
}

/** Subscriptions: each one's plan, next charge, account and mandate; cancelling after a confirmation step. */
export async function subscriptionsRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const auth = { schema: { hide: true }, preValidation: portalUser(ctx) };

  app.get(`${PORTAL_PATH}/subscriptions`, auth, async (request, reply) => {
    const cursor = cursorParam(request.query);
    const list = await callService(ctx, request, listConsumerSubscriptionsOp, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    const subs = await Promise.all(list.data.map(async (subscription) => ({ subscription, mandate: await mandateOf(ctx, request, subscription.subscription_transaction_uuid) })));
    const query = request.query as Record<string, unknown>;
    const notice =
      query["cancelled"] !== undefined
        ? "Subscription cancelled. Its debit authorization is revoked: no further payment will be taken."
        : query["account_changed"] !== undefined
          ? "Bank account changed. The next payment is taken from it, under the authorization you accepted."
          : undefined;
    const body = subscriptionsList(subs, list.next_cursor, notice);
    return sendPage(reply, { title: "Subscriptions", body, sandbox: ctx.sandbox, session: sessionOf(request, reply, "subscriptions") });
  });

  app.get(`${PORTAL_PATH}/subscriptions/:transaction_uuid/cancel`, auth, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    const mandate = await mandateOf(ctx, request, transactionUuid);
    const body = cancelConfirmation(csrfToken(reply), transactionUuid, mandate);
    return sendPage(reply, { title: "Cancel this subscription?", body, sandbox: ctx.sandbox, session: sessionOf(request, reply, "subscriptions") });
  });

  app.post(`${PORTAL_PATH}/subscriptions/:transaction_uuid/cancel`, { ...auth, preHandler: app.csrfProtection }, async (request, reply) => {
    await callService(ctx, request, cancelSubscriptionByTransactionOp, { subscription_transaction_uuid: transactionUuidParam(request.params) });
    return reply.redirect(`${PORTAL_PATH}/subscriptions?cancelled=1`, 303);
  });
}
