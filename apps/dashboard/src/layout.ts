import type { FastifyReply, FastifyRequest } from "fastify";
import { DASHBOARD_CSP, SCRIPT, STYLE } from "./dashboard-assets.ts";
import { csrfField as csrfInput, csrfToken, html, sendHtml, type Html, type WebContext } from "@payrail/web";

const NAV: readonly [path: string, label: string][] = [
  ["/dashboard", "Overview"],
  ["/dashboard/checkouts", "Checkouts"],
  ["/dashboard/subscriptions", "Subscriptions"],
  ["/dashboard/refunds", "Refunds"],
  ["/dashboard/balance", "Balance"],
  ["/dashboard/reviews", "Reviews"],
  ["/dashboard/webhooks", "Webhooks"],
  ["/dashboard/events", "Events"],
  ["/dashboard/api-keys", "API keys"],
  ["/dashboard/team", "Team"],
  ["/dashboard/audit-log", "Audit log"],
];

/** The notices a redirect may ask a page to show: fixed texts, so no input is ever echoed. */
export const NOTICES = {
  approved: "Refund approved.",
  rejected: "Refund rejected.",
  payout: "Refund payout started.",
  "refund-settled": "Refund settled in the sandbox: its payout completed.",
  "payment-settled": "Payment settled in the sandbox. The checkout shows it within seconds.",
  "review-approved": "Debit approved: it is sent to the bank now.",
  "review-cancelled": "Debit cancelled: nothing is debited and the payment fails.",
  cancelled: "Subscription cancelled. No further charge is made; the list shows it within seconds.",
  disabled: "Endpoint disabled.",
  enabled: "Endpoint enabled.",
  redelivered: "Event sent again to the enabled endpoints.",
  revoked: "API key revoked.",
  role: "Role changed. That user signs in again under the new role.",
  removed: "User removed. Their sessions ended.",
  accepted: "Password set. Sign in with your email and new password.",
  "signed-out": "Signed out.",
  "sign-in-expired": "That sign-in expired or was already used. Sign in again.",
  "reset-sent": "If that email belongs to a dashboard user, a link to reset the password is on its way. It works once, for 30 minutes.",
  "password-reset": "Password changed, and every session of your account ended. Sign in with the new password.",
  "two-factor-off": "Two-factor sign-in is off.",
  "team-two-factor": "The team's two-factor rule is saved.",
} as const;

export type Notice = keyof typeof NOTICES;

/**
 * A form's hidden CSRF field (@fastify/csrf-protection's token for this browser's secret
 * cookie, one per page; the cookie, when set here, is Secure when the session's is).
 */
export function csrfField(reply: FastifyReply): Html {
  return csrfInput(csrfToken(reply));
}

export interface PageOptions {
  title: string;
  body: Html;
  status?: number;
  /** The nav entry to mark current; none on pages outside the signed-in area. */
  active?: string;
  error?: string;
}

/** Sends a whole page: the shell (banner, nav, who is signed in), the CSP, never cached. */
export function sendPage(ctx: WebContext, request: FastifyRequest, reply: FastifyReply, page: PageOptions): FastifyReply {
  const user = request.dashboardUser;
  const notice = NOTICES[(request.query as { done?: string } | undefined)?.done as Notice];
  // The sandbox banner sits inside the header (a banner landmark): all of a page's content is in one.
  const banner = ctx.sandbox ? html`<div class="sandbox" role="note">Sandbox: test mode. No real money moves.</div>` : "";
  const header = user
    ? html`<header>${banner}<div class="bar">
        <a class="brand" href="/dashboard">Payrail</a>
        <nav aria-label="Dashboard"><ul>${NAV.map(
          ([path, label]) => html`<li><a href="${path}"${page.active === path ? html` aria-current="page"` : ""}>${label}</a></li>`,
        )}</ul></nav>
        <div class="who"><span>${user.email} · ${user.role}</span> <a href="/dashboard/security"${page.active === "/dashboard/security" ? html` aria-current="page"` : ""}>Security</a>
          <form class="inline" method="post" action="/dashboard/sign-out">${csrfField(reply)}<button class="secondary" type="submit">Sign out</button></form>
        </div></div>
      </header>`
    : html`<header>${banner}<div class="bar"><a class="brand" href="/dashboard">Payrail</a></div></header>`;
  const doc = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Payrail dashboard</title><link rel="stylesheet" href="/dashboard/assets/${STYLE.name}">
<script src="/dashboard/assets/${SCRIPT.name}" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
${header}
<main id="main"><h1>${page.title}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
${page.error ? html`<p class="error" role="alert">${page.error}</p>` : ""}
${page.body}</main></body></html>`;
  return sendHtml(reply, page.status ?? 200, { "content-security-policy": DASHBOARD_CSP }, doc.value);
}

/** After a change: back to a page (Post/Redirect/Get), with one of the fixed notices. */
export function redirectDone(reply: FastifyReply, path: string, notice?: Notice): FastifyReply {
  return reply.redirect(notice ? `${path}${path.includes("?") ? "&" : "?"}done=${notice}` : path, 303);
}
