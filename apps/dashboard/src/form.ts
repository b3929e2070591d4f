import { parseOrThrow } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";

/** A posted form, checked by its schema: a bad field is the API's 400 naming it, never a 500. */
export function formOf<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  return parseOrThrow(schema, request.body ?? {});
}

/** A query string, checked the same way. */
export function queryOf<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  return parseOrThrow(schema, request.query ?? {});
}
