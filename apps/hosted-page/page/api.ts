/** The API's error body (docs/api-notes.md, Answers and errors), reduced to what the page shows. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After (429/503). */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

/**
 * Calls the gateway the page came from. Credentials travel only in headers, from memory: the
 * page stores nothing (no cookie, no storage), so closing the tab forgets the auth token.
 */
export async function api<T>(method: "GET" | "POST", path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? null : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "network", "We could not reach the payment service. Check your connection and try again.", null);
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: handled as a failure below.
  }
  if (response.ok && json !== null) return json as T;
  const error = (json as { error?: { code?: string; message?: string } } | null)?.error;
  const retry = Number(response.headers.get("retry-after"));
  throw new ApiError(
    response.status,
    error?.code ?? "unavailable",
    error?.message ?? "The payment service is not answering right now. Try again in a moment.",
    Number.isFinite(retry) && retry > 0 ? retry : null,
  );
}
