import { AppError, ERROR_TYPES, type ErrorPayload } from "@payrail/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import "./request-fields.ts";

/** The API's error body (docs/api-notes.md, Answers and errors: Stripe's shape). */
export interface ErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    param?: string;
    provider_code?: string;
    existing_id?: string;
    request_id: string;
  };
}

export function errorBody(error: ErrorPayload & { status: number }, requestId: string): ErrorBody {
  const body: ErrorBody = {
    error: {
      type: ERROR_TYPES[error.status as keyof typeof ERROR_TYPES] ?? "api_error",
      code: error.code,
      message: error.message,
      request_id: requestId,
    },
  };
  if (error.param) body.error.param = error.param;
  if (error.providerCode) body.error.provider_code = error.providerCode;
  if (error.existingId) body.error.existing_id = error.existingId;
  return body;
}

/**
 * Fastify's own errors (body parsing, limits) to API codes. Anything unrecognised is a bug:
 * 500 with a generic message; the details go to the log only.
 */
export function fromFastifyError(err: { code?: string; statusCode?: number; message: string }): AppError {
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AppError("unsupported_media_type", "request bodies must be application/json");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("body_too_large", "request body is larger than 64 KiB");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("invalid_json", "the body is empty but the content type is application/json");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new AppError("invalid_json", "the body is not valid JSON");
  }
  if (err instanceof SyntaxError || err.code === undefined && err.statusCode === 400) {
    return new AppError("invalid_json", "the body is not valid JSON");
  }
  if (err.statusCode === 413) return new AppError("body_too_large", "request body is larger than 64 KiB");
  if (err.statusCode === 415) return new AppError("unsupported_media_type", "request bodies must be application/json");
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError("invalid_request", "the request could not be read");
  }
  return new AppError("internal_error", "an internal error occurred");
}

/** Sends an AppError as the API's error body (docs/api-notes.md, Answers and errors) with its status (and Retry-After for 429/503). */
export function sendAppError(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  request.errorCode = error.code; // for the request's log line
  if (error.retryAfter !== undefined) reply.header("retry-after", String(Math.max(1, Math.ceil(error.retryAfter))));
  else if (error.status === 503 || error.status === 429) reply.header("retry-after", "1");
  return reply.code(error.status).send(errorBody({ ...error.toPayload(), status: error.status }, request.id));
}
