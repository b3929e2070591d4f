import { AppError } from "@payrail/contracts";

/** The broker, the service or this transport cannot take the call now; retry after `retryAfter` s. */
export function serviceUnavailable(message: string, retryAfterSeconds = 1): AppError {
  return new AppError("service_unavailable", message, { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)) });
}

/** No reply within the call's timeout; the request may or may not have been handled. */
export function serviceTimeout(pattern: string, timeoutMs: number): AppError {
  return new AppError("service_timeout", `${pattern} did not answer within ${timeoutMs} ms`, { retryAfter: 1 });
}
