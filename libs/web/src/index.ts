/**
 * The web kit the gateway's API and its apps (dashboard, portal, hosted page) share: the page
 * template, cookies and CSRF, the request→RPC call, the error body, consumer tokens, the pages'
 * CSP and links. It imports no app and no service.
 */
import "./request-fields.ts";

export type { WebContext } from "./web-context.ts";
export { Html, html } from "./html.ts";
export { csrfField, csrfToken } from "./csrf-token.ts";
export { registerCookies } from "./cookies.ts";
export { registerPageForms } from "./page-forms.ts";
export { sessionCookieOptions } from "./session-cookie.ts";
export { sendHtml } from "./send-html.ts";
export { hashedAsset, sendAsset, type StaticAsset } from "./static-asset.ts";
export { answerFromService, callService } from "./call-service.ts";
export { fromFastifyError, sendAppError } from "./error-body.ts";
export { authenticateUser, isConsumerToken, userOfToken } from "./user-auth.ts";
export { mandateClient } from "./mandate-client.ts";
export { revokeApiKey } from "./revoke-api-key.ts";
export { hostedPageUrl, publicBase } from "./page-url.ts";
export { HOSTED_PAGE_IMAGES, newNonce, pageCsp, plaidLinkPageHeaders } from "./page-csp.ts";
export { BALANCE_TRANSACTION_COLUMNS, CHECKOUT_COLUMNS, CSV_EXPORTS, REFUND_COLUMNS, TRANSACTION_COLUMNS, sendCsvExport } from "./csv-exports.ts";
