import { AppError, getMandateOp, maskEmail, maskPhone, type CheckoutView, type Mandate, type Notice } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import { callService, html, type Html, type WebContext } from "@payrail/web";
import { badge, when } from "../format.ts";

/**
 * The checkout's mandate (payments' Get Mandate), or null when it has none yet, or when payments
 * does not answer: the rest of the checkout's page still shows, and the card says which.
 */
export async function checkoutMandate(ctx: WebContext, request: FastifyRequest, checkout: CheckoutView): Promise<Mandate | "unavailable" | null> {
  if (!checkout.mandate_id) return null;
  try {
    return await callService(ctx, request, getMandateOp, { mandate_id: checkout.mandate_id });
  } catch (err) {
    if (err instanceof AppError && err.status === 503) return "unavailable";
    throw err;
  }
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * Who pays and from where, as a support or finance person needs it, masked as the notices show
 * them (enough to recognise the consumer on a call, not to dial or write): the verified phone
 * the consumer's SMS notices go to (only the notices service learns it, already masked), the
 * billing phone and the email the merchant sent, the bank and the account's last digits, and the
 * mandate that authorizes the debits, with how the account was validated.
 */
export function customerFacts(checkout: CheckoutView, mandate: Mandate | "unavailable" | null, notices: readonly Notice[] | null): Html {
  const verified = notices?.find((n) => n.channel === "sms")?.to ?? null;
  const billing = text((checkout["billing"] as { phone_number?: unknown } | null | undefined)?.phone_number);
  const email = text((checkout["customer"] as { email?: unknown } | undefined)?.email);
  const m = mandate === "unavailable" ? null : mandate;
  const none = html`<span class="muted">—</span>`;
  const mandateFacts =
    mandate === "unavailable"
      ? html`<dt>Mandate</dt><dd class="muted">The mandate cannot be read right now; reload the page in a moment.</dd>`
      : m === null
        ? html`<dt>Mandate</dt><dd class="muted">None yet: the consumer has not linked a bank account.</dd>`
        : html`<dt>Mandate</dt><dd><span class="mono">${m.id}</span> ${badge(m.status)} · ${m.type.replace("_", " ")}${m.revoked_at ? html` · revoked ${when(m.revoked_at)}` : ""}</dd>
          <dt>Accepted</dt><dd>${when(m.accepted_at)}${m.text_version ? html` <span class="muted">(text ${m.text_version})</span>` : ""}</dd>
          <dt>Validated</dt><dd>${m.validation ? html`${m.validation.method.replaceAll("_", " ")}, ${when(m.validation.validated_at)}` : "not yet: no debit is made until it is"}</dd>
          <dt>Last debit</dt><dd>${when(m.last_debit_at)}</dd>`;
  return html`<dl class="facts">
      <dt>Verified phone</dt><dd class="mono">${verified ?? html`<span class="muted">— (no SMS notice yet)</span>`}</dd>
      <dt>Billing phone</dt><dd class="mono">${billing ? maskPhone(billing) : none}</dd>
      <dt>Email</dt><dd class="mono">${email ? maskEmail(email) : none}</dd>
      <dt>Bank</dt><dd>${m?.bank_account.institution ?? none}</dd>
      <dt>Account</dt><dd class="mono">${m?.bank_account.mask ? `••••${m.bank_account.mask}` : none}</dd>
      ${mandateFacts}</dl>`;
}
