import { csrfField, html, type Html } from "@payrail/web";
import { PORTAL_PATH } from "./portal-session.ts";
import { PORTAL_STYLE } from "./portal-style.ts";

const SECTIONS = [
  { key: "payments", label: "Payments", href: `${PORTAL_PATH}/payments` },
  { key: "subscriptions", label: "Subscriptions", href: `${PORTAL_PATH}/subscriptions` },
  { key: "refunds", label: "Refunds", href: `${PORTAL_PATH}/refunds` },
  { key: "receipts", label: "Receipts", href: `${PORTAL_PATH}/receipts` },
] as const;

export type Section = (typeof SECTIONS)[number]["key"];

export interface PageOptions {
  title: string;
  body: Html;
  sandbox: boolean;
  /** Signed in: the navigation and the sign-out form (which needs the page's CSRF token). */
  session?: { phone: string; csrf: string; section?: Section } | undefined;
  /** The one script a page may carry (the live bank-account page's Plaid Link), with the response's CSP nonce. */
  script?: { src: string; nonce: string } | undefined;
}

/** The whole document: one h1 per page, landmarks, the sandbox banner, the session's navigation. */
export function page(options: PageOptions): string {
  const { session } = options;
  const nav = session
    ? html`<nav aria-label="Account"><ul>${SECTIONS.map(
        (s) => html`<li><a href="${s.href}"${s.key === session.section ? html` aria-current="page"` : ""}>${s.label}</a></li>`,
      )}</ul></nav>
      <form method="post" action="${PORTAL_PATH}/sign-out">${csrfField(session.csrf)}<button type="submit" class="link">Sign out</button></form>`
    : "";
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Your payments</title><link rel="stylesheet" href="${PORTAL_PATH}/assets/${PORTAL_STYLE.name}">${
    options.script ? html`<script type="module" src="${options.script.src}" nonce="${options.script.nonce}"></script>` : ""
  }</head>
<body>
<header>${
    // Inside the header (a banner landmark), so all of the page's content is in a landmark.
    options.sandbox ? html`<p class="sandbox" role="note">Sandbox: test data, no real money moves.</p>` : ""
  }<span class="brand">Your payments by bank</span>${session ? html`<span class="muted">${session.phone}</span>` : ""}${nav}</header>
<main><h1>${options.title}</h1>${options.body}</main></body></html>`.value;
}
