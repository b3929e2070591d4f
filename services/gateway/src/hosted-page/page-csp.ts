/**
 * The hosted page's Content-Security-Policy. Everything is the gateway's own (`'self'`): no
 * inline script or style, no third-party request at all in sandbox mode. Live mode adds only
 * what Plaid Link needs (its documented CSP): its script and iframe from cdn.plaid.com and the
 * calls that script makes to Plaid's API hosts.
 */
export function pageCsp(live: boolean): string {
  const plaid = live ? " https://cdn.plaid.com" : "";
  const plaidApi = live ? " https://production.plaid.com https://sandbox.plaid.com" : "";
  return [
    "default-src 'none'",
    `script-src 'self'${plaid}`,
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${plaidApi}`,
    `frame-src ${live ? "https://cdn.plaid.com" : "'none'"}`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
