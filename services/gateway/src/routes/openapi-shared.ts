import { z } from "zod";

/**
 * Documentation-only pieces of the route schemas. Header schemas are loose on purpose
 * (`api-key` optional here): the auth hook gives the precise 401, and headers an endpoint
 * does not use are ignored (docs/api-notes.md, Requests).
 */
export const ApiKeyHeader = z.looseObject({ "api-key": z.string().optional().describe("The merchant's API key") });
export const AuthorizationHeader = z.looseObject({
  authorization: z.string().optional().describe("`Token <auth_token>`, `Bearer <auth_token>` or the bare token"),
});
export const AdminHeader = z.looseObject({ "x-admin-token": z.string().optional().describe("ADMIN_TOKEN") });

export const ErrorBodySchema = z.object({
  error: z.object({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    provider_code: z.string().optional(),
    existing_id: z.string().optional().describe("409 duplicate: the id of the resource that already exists"),
    request_id: z.string(),
  }),
});

export const errorResponses = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
  503: ErrorBodySchema,
};
