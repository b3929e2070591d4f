import { AppError } from "@payrail/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { csrfToken, fromFastifyError, html, plaidLinkPageHeaders, sendAppError, sendHtml } from "@payrail/web";
import { page, type PageOptions, type Section } from "./portal-layout.ts";
import { PORTAL_CSP } from "./portal-csp.ts";
import { PORTAL_PATH } from "./portal-session.ts";

/**
 * Sends a portal page: never cached (it shows the consumer's own records), under the portal's
 * CSP; a page with a script (live Plaid Link) under the hosted page's live policy, which allows
 * Link and nothing else, with the page's nonce and forms posting back here.
 */
export function sendPage(reply: FastifyReply, options: PageOptions, status = 200): FastifyReply {
  return sendHtml(reply, status, options.script ? plaidLinkPageHeaders(options.script.nonce, "'self'") : { "content-security-policy": PORTAL_CSP }, page(options));
}

/** A signed-in page of `section`, with the navigation and the CSRF token of its forms. */
export function sessionOf(request: FastifyRequest, reply: FastifyReply, section?: Section): { phone: string; csrf: string; section?: Section } {
  const principal = request.principal;
  const phone = principal.kind === "user" ? principal.phone : "";
  return { phone, csrf: csrfToken(reply), ...(section ? { section } : {}) };
}

/** Words for an error a consumer can act on; anything else is said plainly, without internals. */
function explain(error: AppError): string {
  if (error.code === "rate_limited" || error.code === "too_many_attempts") return `${error.message}.`;
  if (error.status === 503) return "The service is briefly unavailable. Please try again in a moment.";
  if (error.status >= 500) return "Something went wrong on our side. Please try again.";
  return error.message;
}

/**
 * The portal's error handler: a browser gets a page saying what happened, with the status of
 * the API's error; any other client (no `text/html` in Accept) gets the API's error body
 * (docs/api-notes.md, Answers and errors). A form
 * whose CSRF token is missing or wrong (403 from @fastify/csrf-protection) is explained as the
 * stale form it usually is.
 */
export function portalErrorHandler(sandbox: boolean) {
  return (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const csrf = (err as { code?: string }).code?.startsWith("FST_CSRF_");
    const error = err instanceof AppError ? err : csrf ? new AppError("permission_denied", "This form has expired") : fromFastifyError(err as { message: string });
    if (error.code === "internal_error") request.log.error({ err }, "unhandled error");
    if (!(request.headers.accept ?? "").includes("text/html")) return sendAppError(reply, request, error);
    request.errorCode = error.code;
    if (error.retryAfter !== undefined) reply.header("retry-after", String(Math.max(1, Math.ceil(error.retryAfter))));
    const words = csrf ? "This form has expired or did not come from this site. Go back, reload the page and try again." : explain(error);
    const body = html`<p class="error" role="alert">${words}</p><p><a href="${PORTAL_PATH}">Back to your account</a></p>`;
    return sendPage(reply, { title: error.status === 404 ? "Not found" : "Something went wrong", body, sandbox }, error.status);
  };
}

/** A form's fields as strings (absent or not a string: empty), at most 1,000 characters each. */
export function formField(body: unknown, name: string): string {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value.trim().slice(0, 1000) : "";
}
