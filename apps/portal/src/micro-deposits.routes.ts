import { AppError, getRelinkValidationOp, startRelinkMicroDepositsOp, verifyRelinkMicroDepositsOp, type BankAccountValidationState } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { callService, csrfToken, type WebContext } from "@payrail/web";
import { pendingChange } from "./micro-deposits.view.ts";
import { transactionUuidParam } from "./portal-params.ts";
import { formField, sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";

const TITLE = "Confirm your new bank account";
/** What a consumer types for an amount under $1: `0.07`, `.07`, `$0.07`. */
const TYPED_AMOUNT = /^\$?(0?\.\d{1,2})$/;
const BAD_AMOUNTS = "Enter each deposit as an amount under $1.00, for example 0.07.";

/**
 * The portal's side of a subscription's pending change of account (docs/decisions/0043-portal-micro-deposits.md),
 * over the consumer-scoped operations (the session's principal, the subscription named by its
 * record as for the re-link: another consumer's is 404): the page of where it stands, the two
 * amounts, and a new pair (or the end of a change already validated). A validated change sends
 * the consumer back to their subscriptions with the account changed.
 */
export async function microDepositRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const auth = { schema: { hide: true }, preValidation: portalUser(ctx) };
  const path = `${PORTAL_PATH}/subscriptions/:transaction_uuid/bank-account`;
  const show = (request: FastifyRequest, reply: FastifyReply, transactionUuid: string, state: BankAccountValidationState, status = 200, error?: string) => {
    const body = pendingChange(csrfToken(reply), transactionUuid, state, new Date(), ctx.sandbox, error);
    return sendPage(reply, { title: TITLE, body, sandbox: ctx.sandbox, session: sessionOf(request, reply, "subscriptions") }, status);
  };
  /** Done (nothing pending: switched, or never pending): the subscriptions, with the change said when it was made. */
  const done = (reply: FastifyReply, state: BankAccountValidationState) =>
    reply.redirect(`${PORTAL_PATH}/subscriptions${state.status === "validated" ? "?account_changed=1" : ""}`, 303);
  const current = (request: FastifyRequest, transactionUuid: string) => callService(ctx, request, getRelinkValidationOp, { subscription_transaction_uuid: transactionUuid });

  app.get(`${path}/verify`, auth, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    const state = await current(request, transactionUuid);
    if (!state.pending_change) return reply.redirect(`${PORTAL_PATH}/subscriptions`, 303);
    return show(request, reply, transactionUuid, state);
  });

  app.post(`${path}/verify`, { ...auth, preHandler: app.csrfProtection }, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    const typed = [formField(request.body, "amount_1"), formField(request.body, "amount_2")].map((a) => TYPED_AMOUNT.exec(a)?.[1]);
    if (typed.some((a) => a === undefined || Number(a) <= 0)) return show(request, reply, transactionUuid, await current(request, transactionUuid), 400, BAD_AMOUNTS);
    const amounts = typed.map((a) => (a!.startsWith(".") ? `0${a}` : a!)) as [string, string];
    try {
      const state = await callService(ctx, request, verifyRelinkMicroDepositsOp, { subscription_transaction_uuid: transactionUuid, amounts });
      return state.pending_change ? show(request, reply, transactionUuid, state) : done(reply, state);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const again = (error?: string) => current(request, transactionUuid).then((state) => show(request, reply, transactionUuid, state, err.status, error));
      if (err.code === "micro_deposit_amounts_mismatch") return again("Those are not the two amounts we sent. Check your statement and try again.");
      if (err.code === "parameter_invalid") return again(BAD_AMOUNTS);
      // Locked or expired: the page says so from the state.
      if (err.code === "micro_deposits_locked" || err.code === "micro_deposits_expired") return again();
      if (err.code === "transfer_in_progress") return again("Your subscription is being charged right now. Finish the change again in a moment.");
      throw err;
    }
  });

  app.post(`${path}/deposits`, { ...auth, preHandler: app.csrfProtection }, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    try {
      const state = await callService(ctx, request, startRelinkMicroDepositsOp, { subscription_transaction_uuid: transactionUuid });
      return state.pending_change ? reply.redirect(`${PORTAL_PATH}/subscriptions/${transactionUuid}/bank-account/verify`, 303) : done(reply, state);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === "micro_deposits_locked") return show(request, reply, transactionUuid, await current(request, transactionUuid), err.status);
      if (err.code === "bank_account_already_validated") return reply.redirect(`${PORTAL_PATH}/subscriptions`, 303);
      throw err;
    }
  });
}
