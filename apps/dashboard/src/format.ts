import { html, type Html } from "@payrail/web";

/** A timestamp as `<time>`: UTC in the markup (and on hover), the viewer's zone once the script runs. */
export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}">${iso.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time>`;
}

/** An amount as the API shows it (a decimal in major units) with its currency. */
export function money(amount: string | number | null | undefined, currency = "USD"): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  const value = typeof amount === "number" ? amount.toFixed(2) : amount;
  return `${value} ${currency}`;
}

const GOOD = new Set(["paid", "completed", "approved", "active", "enabled", "succeeded", "sent"]);
const BAD = new Set(["failed", "rejected", "returned", "cancelled", "unpaid", "disabled", "revoked", "expired"]);
const WAITING = new Set(["pending", "processing", "past_due", "queued", "open", "in_review"]);

export function badge(status: string | null | undefined): Html {
  if (!status) return html`<span class="muted">—</span>`;
  const tone = GOOD.has(status) ? " ok" : BAD.has(status) ? " bad" : WAITING.has(status) ? " warn" : "";
  return html`<span class="badge${tone}">${status}</span>`;
}
