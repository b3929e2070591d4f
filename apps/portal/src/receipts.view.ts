import type { ConsumerReceipt, ConsumerReceiptSummary } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { day } from "./portal-format.ts";
import { PORTAL_PATH } from "./portal-session.ts";

const CHANNEL = { sms: "Text message", email: "Email" } as const;
const STATUS = { queued: "Being sent", sent: "Sent", failed: "Could not be delivered" } as const;

/** Every receipt, newest first: when, from whom, and a link to what it said. */
export function receiptsTable(receipts: readonly ConsumerReceiptSummary[], hasMore: boolean): Html {
  if (receipts.length === 0) return html`<p>No receipts yet. A receipt is sent when a payment by bank goes through.</p>`;
  const rows = receipts.map(
    (r) => html`<tr><td>${day(r.created_at)}</td><td>${r.merchant.name}</td><td><a href="${PORTAL_PATH}/receipts/${r.id}">${r.subject}</a></td></tr>`,
  );
  const last = receipts.at(-1);
  return html`<table><caption class="muted">The receipts sent to you, newest first</caption><thead><tr><th scope="col">Date</th><th scope="col">Merchant</th><th scope="col">Receipt</th></tr></thead>
<tbody>${rows}</tbody></table>
${hasMore && last ? html`<p><a href="${PORTAL_PATH}/receipts?starting_after=${last.id}">Older receipts</a></p>` : ""}`;
}

/** One receipt: the merchant and how to reach its support, then the words each channel carried. */
export function receiptDetail(receipt: ConsumerReceipt): Html {
  const { merchant } = receipt;
  const copies = receipt.copies.map(
    (c, i) => html`<section class="card" aria-labelledby="copy-${i}"><h2 id="copy-${i}">${CHANNEL[c.channel]} to ${c.to}</h2>
<p class="muted">${STATUS[c.status]}${c.sent_at ? ` on ${day(c.sent_at)}` : ""}</p><p class="sent-text">${c.body}</p></section>`,
  );
  return html`<dl><dt>Merchant</dt><dd>${merchant.name}</dd>
<dt>Support email</dt><dd>${merchant.support_email ? html`<a href="mailto:${merchant.support_email}">${merchant.support_email}</a>` : "Not given"}</dd>
<dt>Support phone</dt><dd>${merchant.support_phone ?? "Not given"}</dd>
<dt>Date</dt><dd>${day(receipt.created_at)}</dd></dl>
${copies}
<p><a href="${PORTAL_PATH}/receipts">Back to receipts</a></p>`;
}
