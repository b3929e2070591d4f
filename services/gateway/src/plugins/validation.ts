import { parseOrThrow, AppError } from "@payrail/contracts";
import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";

/**
 * Validates with the route's zod schema and fails with the API's own 400 (code and dotted
 * `param` of the first bad field), instead of fastify's generic validation error.
 *
 * Header schemas are documentation only (routes/openapi-shared.ts: loose, every header
 * optional; the auth hooks give the precise 401): no validator is compiled for them, so a
 * request's headers are not parsed and copied by zod on every call.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  // fastify skips a part whose validator is null (lib/validation.js `validateParam`).
  if (httpPart === "headers") return null as never;
  return (data: unknown) => {
    if (httpPart === "body" && (data === null || data === undefined)) {
      return { error: new AppError("parameter_missing", "a JSON body is required") };
    }
    if (httpPart === "body" && (typeof data !== "object" || Array.isArray(data))) {
      return { error: new AppError("invalid_request", "the JSON body must be an object") };
    }
    try {
      return { value: parseOrThrow(schema, data) };
    } catch (error) {
      return { error: error as AppError };
    }
  };
};

/** Replies are built by our own code from typed values; plain JSON is all they need. */
export const jsonSerializerCompiler = () => (data: unknown) => JSON.stringify(data);
