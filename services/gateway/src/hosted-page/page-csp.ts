/** Plaid Link's script: the one file of another origin the live page may run. */
const PLAID_SCRIPT = "https://cdn.plaid.com/link/v2/stable/link-initialize.js";

/**
 * The hosted page's Content-Security-Policy. Everything is the gateway's own (`'self'`): no
 * inline script or style, no third-party request at all in sandbox mode. Live mode adds only
 * what Plaid Link's documented policy asks for, in its nonce form rather than 'unsafe-inline':
 * its script, its iframe from cdn.plaid.com, calls to Plaid's API hosts, and the response's
 * `nonce` for the script and styles Link injects (the page hands the nonce to Link's script tag).
 */
export function pageCsp(live: boolean, nonce?: string): string {
  const withNonce = live && nonce ? ` 'nonce-${nonce}'` : "";
  return [
    "default-src 'none'",
    `script-src 'self'${withNonce}${live ? ` ${PLAID_SCRIPT}` : ""}`,
    `style-src 'self'${withNonce}`,
    "img-src 'self' data:",
    `connect-src 'self'${live ? " https://production.plaid.com https://sandbox.plaid.com" : ""}`,
    `frame-src ${live ? "https://cdn.plaid.com" : "'none'"}`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
