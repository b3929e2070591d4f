/**
 * The routes the interface specification writes with a trailing slash. The gateway serves both
 * forms (`ignoreTrailingSlash`), but a client that validates against `/openapi.json` (a gateway,
 * a validating proxy) refuses a path the document does not list: each is listed in both forms,
 * the slash form as an operation of its own (`…WithSlash`) so operationIds stay unique.
 */
export const SPEC_SLASH_PATHS = [
  "/api/consumers/checkout/{checkout_id}/create_link_token",
  "/api/consumers/checkout/{checkout_id}/exchange_public_token",
  "/api/merchants/manage_subscription/get_subscription_details",
  "/api/merchants/manage_subscription/subscription_cancel",
  "/api/merchants/refund_request/consumer_refund_request",
  "/api/merchants/refund_request/consumer_refund_list",
  "/api/merchants/refund_request/merchant_status_refund_request",
  "/api/merchants/refund_request/initiate_refund_transfer",
] as const;

const METHODS = ["get", "put", "post", "delete", "patch"];

/** Adds the specification's slash form of each path in SPEC_SLASH_PATHS that the document has. */
export function addSpecSlashPaths(paths: Record<string, Record<string, Record<string, unknown>>>): void {
  for (const path of SPEC_SLASH_PATHS) {
    const item = paths[path];
    if (!item) continue;
    const alias: Record<string, Record<string, unknown>> = {};
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      alias[method] = { ...structuredClone(op), operationId: `${String(op["operationId"])}WithSlash`, description: `The specification's form of \`${method.toUpperCase()} ${path}\`: the same operation.\n\n${String(op["description"] ?? "")}`.trim() };
    }
    paths[`${path}/`] = alias;
  }
}
