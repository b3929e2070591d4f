import { AppError } from "@payrail/contracts";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";

/** A posted form, checked by its schema: a bad field is a 400 naming it, never a 500. */
export function formOf<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  const parsed = schema.safeParse(request.body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue?.path.join(".") || undefined;
  throw new AppError("parameter_invalid", `${param ?? "the form"}: ${issue?.message ?? "invalid"}`, param ? { param } : {});
}

/** A query string, checked the same way. */
export function queryOf<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  const parsed = schema.safeParse(request.query ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue?.path.join(".") || undefined;
  throw new AppError("parameter_invalid", `${param ?? "the query"}: ${issue?.message ?? "invalid"}`, param ? { param } : {});
}
