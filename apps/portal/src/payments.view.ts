import type { ConsumerPayment, RefundRecord } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { day, money, paymentStatus, refundStatus } from "./portal-format.ts";
import { PORTAL_PATH } from "./portal-session.ts";

function refundable(p: ConsumerPayment): boolean {
  return p.status === "completed" && p.amount_refunded < p.amount;
}

/** Each refund asked of one payment, oldest first, with where it stands. */
function refundLines(refunds: readonly RefundRecord[] | undefined): Html | string {
  if (!refunds?.length) return "";
  return html`${refunds.map((r) => html`<span class="muted">Refund of ${money(r.amount, r.currency)}: ${refundStatus(r.status)}</span><br>`)}`;
}

/**
 * Every payment, newest first, with the refunds asked of it and where they stand, and a refund
 * link on settled ones that are not wholly refunded. `refunds`: the consumer's refunds by
 * transaction_uuid.
 */
export function paymentsTable(payments: readonly ConsumerPayment[], nextCursor: string | null, refunds: ReadonlyMap<string, readonly RefundRecord[]> = new Map()): Html {
  if (payments.length === 0) return html`<p>No payments yet.</p>`;
  const rows = payments.map(
    (p) => html`<tr><td>${day(p.date)}</td><td>${p.merchant_name}${p.is_subscription ? html` <span class="muted">(subscription)</span>` : ""}</td>
<td class="amount">${money(p.amount, p.currency)}</td><td>${paymentStatus(p.status, p.amount, p.amount_refunded, p.currency)}${p.failure_reason ? html`<br><span class="muted">${p.failure_reason}</span>` : ""}</td>
<td>${refundLines(refunds.get(p.transaction_uuid))}${refundable(p) ? html`<a href="${PORTAL_PATH}/payments/${p.transaction_uuid}/refund">Request a refund<span class="vh"> of ${money(p.amount, p.currency)} to ${p.merchant_name} on ${day(p.date)}</span></a>` : ""}</td></tr>`,
  );
  return html`<table><caption class="muted">Newest first</caption><thead><tr><th scope="col">Date</th><th scope="col">Merchant</th><th scope="col" class="amount">Amount</th><th scope="col">Status</th><th scope="col">Refund</th></tr></thead>
<tbody>${rows}</tbody></table>
${nextCursor ? html`<p><a href="${PORTAL_PATH}/payments?cursor=${nextCursor}">Older payments</a></p>` : ""}`;
}
