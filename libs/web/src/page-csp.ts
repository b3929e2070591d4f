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
 * `imgSrc` is where images may come from: the hosted page's is `HOSTED_PAGE_IMAGES`.
 */
export function pageCsp(live: boolean, nonce?: string, formAction = "'none'", imgSrc = "'self' data:"): string {
  const withNonce = live && nonce ? ` 'nonce-${nonce}'` : "";
  return [
    "default-src 'none'",
    `script-src 'self'${withNonce}${live ? ` ${PLAID_SCRIPT}` : ""}`,
    `style-src 'self'${withNonce}`,
    `img-src ${imgSrc}`,
    `connect-src 'self'${live ? " https://production.plaid.com https://sandbox.plaid.com" : ""}`,
    `frame-src ${live ? "https://cdn.plaid.com" : "'none'"}`,
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The hosted page's images: the gateway's own (its favicon, on a plain-http gateway too) and the
 * order's item pictures, which are merchants' https URLs on any host (the checkout service
 * answers no other scheme). No `http:`, no `data:`: the page makes none.
 */
export const HOSTED_PAGE_IMAGES = "'self' https:";

/** A fresh nonce for one live page's response (16 random bytes, base64). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The headers of a page that runs Plaid Link (the hosted page, the portal's live bank-account
 * page): the live policy with the response's nonce, and an opener policy that lets a bank's
 * OAuth window, which Link may open, report back.
 */
export function plaidLinkPageHeaders(nonce: string, formAction = "'none'", imgSrc?: string): Record<string, string> {
  return { "content-security-policy": pageCsp(true, nonce, formAction, imgSrc), "cross-origin-opener-policy": "same-origin-allow-popups" };
}
