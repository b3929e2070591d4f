/**
 * The portal's Content-Security-Policy: stricter than the hosted page's, since the portal runs
 * no script (every action is a form the server answers): only its own stylesheet, and forms
 * that post back to it. The one exception, the live bank-account page's Plaid Link, is served
 * under the hosted page's live policy instead (portal-reply.ts).
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");
