import { AppError, createRelinkTokenOp, getRelinkValidationOp, relinkBankAccountOp, sandboxConsumerPublicTokenOp } from "@payrail/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { callService, csrfToken, mandateClient, newNonce, html, type Html, type WebContext } from "@payrail/web";
import { pageAssets } from "@payrail/hosted-page";
import { accountChoice, liveAccountChoice } from "./bank-account.view.ts";
import type { PageOptions } from "./portal-layout.ts";
import { transactionUuidParam } from "./portal-params.ts";
import { formField, sendPage, sessionOf } from "./portal-reply.ts";
import { PORTAL_PATH, portalUser } from "./portal-session.ts";

const TITLE = "Change the bank account";

/** Accounts a subscription cannot draw on, said on the page with a fresh choice. */
const REFUSED_ACCOUNT = {
  bank_account_blocked: "That bank account is blocked: your bank returned a payment from it, so no shop may debit it. Choose another account.",
} as const;

/**
 * Links another bank account to one of the consumer's subscriptions (docs/api-notes.md, Returns and blocked bank accounts): a bank-linking token with the new recurring authorization's words, the
 * sandbox bank's account picker for that token (live: Plaid Link in the page), and the exchange
 * that switches the account under the new mandate. A blocked account (409 `bank_account_blocked`)
 * is refused, and said on the page with a fresh choice; one the bank could not validate is kept
 * pending, and the consumer goes on to its micro-deposits (micro-deposits.routes.ts).
 */
export async function bankAccountRoutes(app: FastifyInstance, ctx: WebContext): Promise<void> {
  const auth = { schema: { hide: true }, preValidation: portalUser(ctx) };
  const show = (request: FastifyRequest, reply: FastifyReply, body: Html, status = 200, script?: PageOptions["script"]) =>
    sendPage(reply, { title: TITLE, body, sandbox: ctx.sandbox, session: sessionOf(request, reply, "subscriptions"), script }, status);

  /**
   * A fresh choice of accounts under a new bank-linking token: in the sandbox its picker's
   * accounts; live, Plaid Link opened with the token by the page's one script (nonce'd).
   */
  async function choose(request: FastifyRequest, reply: FastifyReply, transactionUuid: string, error?: string, status = 200, lead: Html | "" = "") {
    const principal = request.principal;
    const relink = await callService(ctx, request, createRelinkTokenOp, { subscription_transaction_uuid: transactionUuid }, principal);
    if (!ctx.sandbox) {
      const script = { src: (await pageAssets()).portalRelinkScript, nonce: newNonce() };
      const body = liveAccountChoice(csrfToken(reply), { transactionUuid, linkToken: relink.link_token, mandate: relink.mandate }, error);
      return show(request, reply, html`${lead}${body}`, status, script);
    }
    const picked = await callService(ctx, request, sandboxConsumerPublicTokenOp, { link_token: relink.link_token }, principal);
    const choice = { transactionUuid, publicToken: picked.public_token, accounts: picked.accounts, mandate: relink.mandate };
    return show(request, reply, html`${lead}${accountChoice(csrfToken(reply), choice, error)}`, status);
  }

  app.get(`${PORTAL_PATH}/subscriptions/:transaction_uuid/bank-account`, auth, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    // A change waiting for its deposits is offered first: choosing again would replace it.
    const state = await callService(ctx, request, getRelinkValidationOp, { subscription_transaction_uuid: transactionUuid });
    const lead =
      state.pending_change && state.status !== "locked"
        ? html`<p class="notice" role="status">A change to another account is waiting for its two small deposits. <a href="${PORTAL_PATH}/subscriptions/${transactionUuid}/bank-account/verify">Enter the amounts</a>, or choose an account below to replace it.</p>`
        : "";
    return choose(request, reply, transactionUuid, undefined, 200, lead);
  });

  app.post(`${PORTAL_PATH}/subscriptions/:transaction_uuid/bank-account`, { ...auth, preHandler: app.csrfProtection }, async (request, reply) => {
    const transactionUuid = transactionUuidParam(request.params);
    const body = {
      subscription_transaction_uuid: transactionUuid,
      public_token: formField(request.body, "public_token").slice(0, 512),
      bankdata_account_id: formField(request.body, "account_id").slice(0, 255),
      mandate: { text_version: formField(request.body, "text_version").slice(0, 64) },
      client: mandateClient(request),
    };
    if (!body.public_token || !body.bankdata_account_id || !body.mandate.text_version) {
      throw new AppError("parameter_missing", "Choose an account, then accept the authorization.", { param: "account_id" });
    }
    try {
      const changed = await callService(ctx, request, relinkBankAccountOp, body);
      if (changed.validation) return reply.redirect(`${PORTAL_PATH}/subscriptions/${transactionUuid}/bank-account/verify`, 303);
    } catch (err) {
      if (!(err instanceof AppError) || !(err.code in REFUSED_ACCOUNT)) throw err;
      return choose(request, reply, transactionUuid, REFUSED_ACCOUNT[err.code as keyof typeof REFUSED_ACCOUNT], err.status);
    }
    return reply.redirect(`${PORTAL_PATH}/subscriptions?account_changed=1`, 303);
  });
}
