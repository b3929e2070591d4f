import { randomBytes } from "node:crypto";
import { browserFunction } from "./browser-function.ts";

/**
 * The `merchant_checkout_id` of Create Checkout's example in `/docs`: `docs-try-` and 8 hex
 * digits. Try-it sends an id of this form with fresh digits on every send (DOCS_REQUEST_INTERCEPTOR),
 * so the example creates a checkout each time instead of meeting 409
 * `duplicate_merchant_checkout_id` the second time; an id typed in its place is sent as typed.
 */
export const DOCS_TRY_PREFIX = "docs-try-";

/**
 * Swagger UI's `requestInterceptor` (a browser function: browser-function.ts). On a POST of
 * Create Checkout whose body's `merchant_checkout_id` has the example's form, the digits are
 * replaced; nothing else changes, the body's text included. Swagger UI shows the request as
 * sent (its curl line has the new id).
 */
export const DOCS_REQUEST_INTERCEPTOR = browserFunction<(request: Record<string, unknown>) => Record<string, unknown>>(
  "request",
  `var path = String(request.url).split("?")[0].replace(/^[a-z]+:\\/\\/[^/]+/i, "");
  if (String(request.method).toUpperCase() === "POST" && /^\\/api\\/merchants\\/checkout\\/?$/.test(path) && typeof request.body === "string") {
    var hex = Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(4)), function (b) { return (b + 256).toString(16).slice(1); }).join("");
    request.body = request.body.replace(/("merchant_checkout_id"\\s*:\\s*")${DOCS_TRY_PREFIX}[0-9a-f]{8}"/, "$1${DOCS_TRY_PREFIX}" + hex + '"');
  }
  return request;`,
);

interface DocsDocument {
  servers?: unknown;
  paths?: Record<string, Record<string, { description?: string; requestBody?: { content?: Record<string, { example?: unknown }> } }>>;
}

/**
 * The document as `/docs` renders it: Create Checkout's example gets a `merchant_checkout_id`
 * of the Try-it form (fresh on every render too), and its description says what Try-it does
 * with it. `servers` goes: its one entry is the gateway itself, which Swagger UI then calls (the
 * origin the document came from), and its unlabelled server menu fails axe's select-name.
 * `/openapi.json` keeps the stable example and the servers.
 */
export function docsDocument<T>(document: T): T {
  delete (document as DocsDocument).servers;
  const operation = (document as DocsDocument).paths?.["/api/merchants/checkout"]?.post;
  const media = operation?.requestBody?.content?.["application/json"];
  if (operation && media?.example && typeof media.example === "object") {
    media.example = { ...media.example, merchant_checkout_id: `${DOCS_TRY_PREFIX}${randomBytes(4).toString("hex")}` };
    operation.description = `${operation.description ?? ""}\n\nHere, Try-it sends a \`merchant_checkout_id\` of the form \`${DOCS_TRY_PREFIX}…\` with new digits on every send, so the example creates a checkout each time; type your own id to send it as it is (a second send of it answers 409 \`duplicate_merchant_checkout_id\`).`;
  }
  return document;
}
