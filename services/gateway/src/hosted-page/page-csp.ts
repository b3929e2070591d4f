import { randomBytes } from "node:crypto";

/** Plaid Link's script: the one file of another origin the live page may run. */
const PLAID_SCRIPT = "https://cdn.plaid.com/link/v2/stable/link-initialize.js";

/**
 * The hosted page's Content-Security-Policy. Everything is the gateway's own (`'self'`): no
 * inline script or style, no third-party request at all in sandbox mode. Live mode adds only
 * what Plaid Link's documented policy asks for, in its nonce form rather than 'unsafe-inline':
 * its script, its iframe from cdn.plaid.com, calls to Plaid's API hosts, and the response's
 * `nonce` for the script and styles Link injects (the page hands the nonce to Link's script tag).
 * The consumer portal's live bank-account page runs Link under this same policy, with its form
 * posting back to the portal (`formAction: "'self'"`); the hosted page posts no form.
 */
export function pageCsp(live: boolean, nonce?: string, formAction = "'none'"): string {
  const withNonce = live && nonce ? ` 'nonce-${nonce}'` : "";
  return [
    "default-src 'none'",
    `script-src 'self'${withNonce}${live ? ` ${PLAID_SCRIPT}` : ""}`,
    `style-src 'self'${withNonce}`,
    "img-src 'self' data:",
    `connect-src 'self'${live ? " https://production.plaid.com https://sandbox.plaid.com" : ""}`,
    `frame-src ${live ? "https://cdn.plaid.com" : "'none'"}`,
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** A fresh nonce for one live page's response (16 random bytes, base64). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The headers of a page that runs Plaid Link (the hosted page, the portal's live bank-account
 * page): the live policy with the response's nonce, and an opener policy that lets a bank's
 * OAuth window, which Link may open, report back.
 */
export function plaidLinkPageHeaders(nonce: string, formAction = "'none'"): Record<string, string> {
  return { "content-security-policy": pageCsp(true, nonce, formAction), "cross-origin-opener-policy": "same-origin-allow-popups" };
}
