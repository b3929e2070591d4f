import type { RefundRecord } from "@payrail/contracts";
import { csrfField, html, type Html } from "@payrail/web";
import { day, money, refundStatus } from "./portal-format.ts";
import { PORTAL_PATH } from "./portal-session.ts";

/** Each refund request and where it stands, newest first. */
export function refundsTable(refunds: readonly RefundRecord[], notice?: string): Html {
  const top = notice ? html`<p class="notice" role="status">${notice}</p>` : "";
  if (refunds.length === 0) return html`${top}<p>No refund requests yet. To ask for one, choose a payment under <a href="${PORTAL_PATH}/payments">Payments</a>.</p>`;
  const rows = refunds.map(
    (r) => html`<tr><td>${day(r.created_at)}</td><td class="amount">${money(r.amount, r.currency)}</td><td>${r.reason ?? ""}</td>
<td>${refundStatus(r.status)}${r.failure_reason ? html`<br><span class="muted">${r.failure_reason}</span>` : ""}</td></tr>`,
  );
  return html`${top}<table><caption class="muted">Your refund requests, newest first</caption><thead><tr><th scope="col">Requested</th><th scope="col" class="amount">Amount</th><th scope="col">Reason</th><th scope="col">Status</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

export interface RefundFormFacts {
  transactionUuid: string;
  amount: string;
  refundable: string;
  currency: string;
}

/** The request form: how much (up to what is left to refund) and why. */
export function refundForm(csrf: string, facts: RefundFormFacts, values: { amount?: string; reason?: string } = {}, error?: string): Html {
  return html`<p>This payment was ${money(Number(facts.amount), facts.currency)}; up to <strong>${money(Number(facts.refundable), facts.currency)}</strong> can still be refunded. The merchant decides on your request.</p>
<form method="post" action="${PORTAL_PATH}/payments/${facts.transactionUuid}/refund">${csrfField(csrf)}
<label for="amount">Amount to refund (${facts.currency})</label>
<input id="amount" name="amount" type="text" inputmode="decimal" required value="${values.amount ?? facts.refundable}" aria-describedby="amount-hint${error ? " amount-error" : ""}"${error ? html` aria-invalid="true"` : ""}>
<p class="hint" id="amount-hint">At most ${facts.refundable}, with up to two decimals.</p>
${error ? html`<p class="error" id="amount-error" role="alert">${error}</p>` : ""}
<label for="reason">Reason (optional)</label>
<textarea id="reason" name="reason" rows="3" maxlength="1000">${values.reason ?? ""}</textarea>
<div class="actions"><button type="submit" class="primary">Request refund</button><a class="button secondary" href="${PORTAL_PATH}/payments">Back to payments</a></div></form>`;
}
