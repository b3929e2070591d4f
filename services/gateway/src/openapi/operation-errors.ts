import { ERROR_TYPES, statusOf, type ErrorCode } from "@payrail/contracts";
import { ERROR_MEANINGS } from "./error-meanings.ts";

/** The credentials one operation takes (the names of its security schemes). */
export type SchemeName = "apiKey" | "authToken" | "linkToken" | "adminToken";

/** Errors that follow from an operation's shape rather than from what it does. */
const BY_SCHEME: Record<SchemeName, readonly ErrorCode[]> = {
  apiKey: ["api_key_missing", "api_key_invalid", "permission_denied", "rate_limited"],
  authToken: ["auth_token_missing", "auth_token_invalid", "rate_limited"],
  linkToken: ["link_token_missing", "link_token_invalid", "link_token_expired", "link_token_mismatch"],
  adminToken: ["admin_token_invalid"],
};
const WITH_BODY: readonly ErrorCode[] = ["invalid_json", "parameter_missing", "parameter_invalid", "body_too_large", "unsupported_media_type"];
const WITH_INPUT: readonly ErrorCode[] = ["parameter_invalid"];
const ALWAYS: readonly ErrorCode[] = ["service_unavailable", "service_timeout"];
/** A request without a credential is limited per client address. */
const ANONYMOUS: readonly ErrorCode[] = ["rate_limited"];

/** The codes an operation answers for its shape alone, whatever it does. */
export const SHAPE_CODES: ReadonlySet<ErrorCode> = new Set([...Object.values(BY_SCHEME).flat(), ...WITH_BODY, ...WITH_INPUT, ...ALWAYS, ...ANONYMOUS]);

export interface OperationShape {
  schemes: readonly SchemeName[];
  hasBody: boolean;
  hasInput: boolean;
}

/** Every error code the operation can answer, its own first. */
export function errorCodesOf(own: readonly ErrorCode[], shape: OperationShape): ErrorCode[] {
  const codes = [
    ...own,
    ...(shape.schemes.length === 0 ? ANONYMOUS : shape.schemes.flatMap((s) => BY_SCHEME[s])),
    ...(shape.hasBody ? WITH_BODY : shape.hasInput ? WITH_INPUT : []),
    ...ALWAYS,
  ];
  return [...new Set(codes)];
}

/**
 * The OpenAPI responses for those codes: one per status, its description listing the codes,
 * one example per code, the body the reusable `Error` schema.
 */
export function errorResponsesOf(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const lines = list.map((code) => `- \`${code}\`: ${ERROR_MEANINGS[code] ?? code.replaceAll("_", " ")}`);
    responses[String(status)] = {
      description: `${ERROR_TYPES[status as keyof typeof ERROR_TYPES]}:\n${lines.join("\n")}`,
      ...(status === 429 || status === 503 ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : {}),
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/Error" },
          examples: Object.fromEntries(list.map((code) => [code, { value: exampleBody(code, status) }])),
        },
      },
    };
  }
  return responses;
}

function exampleBody(code: ErrorCode, status: number) {
  return {
    error: {
      type: ERROR_TYPES[status as keyof typeof ERROR_TYPES],
      code,
      message: ERROR_MEANINGS[code] ?? code.replaceAll("_", " "),
      request_id: "req_5f2b8c1e9a7d4e3f8b6a1c2d3e4f5a6b",
    },
  };
}
