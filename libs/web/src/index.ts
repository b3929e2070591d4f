/**
 * The web kit the gateway's API and its apps (dashboard, portal, hosted page) share: the page
 * template, cookies and CSRF, the request→RPC call, the error body, consumer tokens, the pages'
 * CSP and links. It imports no app and no service.
 */
import "./request-fields.ts";

export type { WebContext } from "./web-context.ts";
export { Html, html } from "./html.ts";
export { csrfToken } from "./csrf-token.ts";
export { registerCookies } from "./cookies.ts";
export { answerFromService, callService } from "./call-service.ts";
export { idempotencyKeyOf } from "./idempotency-key.ts";
export { errorBody, fromFastifyError, sendAppError, type ErrorBody } from "./error-body.ts";
export { authTokenFrom, authenticateUser, isConsumerToken, userOfToken } from "./user-auth.ts";
export { mandateClient } from "./mandate-client.ts";
export { revokeApiKey } from "./revoke-api-key.ts";
export { hostedPageUrl, publicBase } from "./page-url.ts";
export { HOSTED_PAGE_IMAGES, newNonce, pageCsp, plaidLinkPageHeaders } from "./page-csp.ts";
