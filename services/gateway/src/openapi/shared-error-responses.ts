import { ERROR_CODES, type ErrorCode } from "@payrail/contracts";
import { errorResponsesOf, SHAPE_CODES } from "./operation-errors.ts";

type Responses = Record<string, { $ref?: string; content?: Record<string, { examples?: Record<string, unknown> }> }>;
type Paths = Record<string, Record<string, { responses?: Responses }>>;

const REGISTRY_ORDER = new Map(Object.keys(ERROR_CODES).map((code, i) => [code, i]));

/**
 * Moves every error response that two or more operations answer alike (the same status and
 * codes: a missing api-key, rate limits, an unavailable service) into `components.responses`,
 * each operation keeping a `$ref`. Inline, they were three fifths of the document, and
 * Swagger UI parses the whole document before it shows an operation. A response's codes are its
 * examples' names (errorResponsesOf); a shared one lists them in one order (sortedCodes) and is
 * named after them: `RateLimited`, `ApiKeyMissingOrApiKeyInvalid`.
 */
export function shareErrorResponses(document: { paths?: unknown; components?: Record<string, unknown> }): void {
  const paths = (document.paths ?? {}) as Paths;
  const uses = new Map<string, number>();
  const each = (visit: (responses: Responses, status: string, codes: ErrorCode[]) => void) => {
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const examples = response.content?.["application/json"]?.examples;
          if (!status.startsWith("2") && examples) visit(op.responses!, status, sortedCodes(Object.keys(examples) as ErrorCode[]));
        }
      }
    }
  };
  each((_, status, codes) => uses.set(keyOf(status, codes), (uses.get(keyOf(status, codes)) ?? 0) + 1));
  const shared: Record<string, unknown> = {};
  each((responses, status, codes) => {
    if ((uses.get(keyOf(status, codes)) ?? 0) < 2) return;
    const name = nameOf(codes);
    shared[name] ??= errorResponsesOf(codes)[status];
    responses[status] = { $ref: `#/components/responses/${name}` };
  });
  document.components = { ...document.components, responses: Object.fromEntries(Object.entries(shared).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** An operation's own codes first (as errorCodesOf lists them), then its shape's, each in the registry's order. */
function sortedCodes(codes: ErrorCode[]): ErrorCode[] {
  const rank = (code: ErrorCode) => (SHAPE_CODES.has(code) ? REGISTRY_ORDER.size : 0) + REGISTRY_ORDER.get(code)!;
  return [...codes].sort((a, b) => rank(a) - rank(b));
}

function keyOf(status: string, codes: readonly ErrorCode[]): string {
  return `${status} ${codes.join(",")}`;
}

/** `["api_key_missing", "api_key_invalid"]` → `ApiKeyMissingOrApiKeyInvalid`. */
function nameOf(codes: readonly ErrorCode[]): string {
  return codes.map((code) => code.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())).join("Or");
}
