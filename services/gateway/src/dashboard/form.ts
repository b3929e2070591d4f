import { AppError } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";

/** A posted form, checked by its schema: a bad field is a 400 naming it, never a 500. */
export function formOf<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  return checked(request.body, schema, "the form");
}

/** A query string, checked the same way. */
export function queryOf<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  return checked(request.query, schema, "the query");
}

function checked<S extends z.ZodType>(value: unknown, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue?.path.join(".") || undefined;
  throw new AppError("parameter_invalid", `${param ?? what}: ${issue?.message ?? "invalid"}`, param ? { param } : {});
}
