import type { DwollaFailure } from "./dwolla.transformers.ts";

/** The part of dwolla-v2's answer the adapter reads. */
export interface SdkResponse {
  status: number;
  headers?: { get(name: string): string | null };
  body: unknown;
}

/**
 * What a dwolla-v2 rejection means, as plain values. The SDK rejects with:
 * - an Error with `status`, `headers`, `body` when the API answered >= 400 (src/dwolla/Token.js);
 * - an Error with `error` (`invalid_client`, ...) when the token endpoint refused (src/dwolla/Auth.js);
 * - node-fetch's FetchError when no answer came (`type: "system"`, `code: "ECONNREFUSED"`, ...)
 *   or the answer was not JSON (`type: "invalid-json"`).
 */
export function plainFailure(err: unknown): DwollaFailure {
  const e = (typeof err === "object" && err !== null ? err : {}) as Record<string, unknown>;
  if (typeof e.status === "number") return { status: e.status, body: e.body };
  if (typeof e.error === "string") return { oauthError: e.error.slice(0, 64) };
  if (e.name === "FetchError") {
    if (e.type === "invalid-json") return { networkCode: "invalid_response" };
    return { networkCode: typeof e.code === "string" ? e.code : String(e.type ?? "fetch_error") };
  }
  // Anything else (a bug in the SDK's path, say) still means "no usable answer".
  return { networkCode: "unexpected_error" };
}
