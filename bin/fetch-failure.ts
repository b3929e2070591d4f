/** What Node's fetch hides behind "fetch failed": the socket error codes a newcomer meets. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused: nothing is listening there",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved now",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "the host cannot be reached",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_SOCKET: "the connection closed before an answer",
};

/** Why a fetch failed, in words, with the system's code: "connection refused: … (ECONNREFUSED)". */
export function whyFetchFailed(err: unknown): string {
  const error = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error.name === "TimeoutError") return "no answer in time";
  const code = error.cause?.code;
  if (code) return `${REASONS[code] ?? error.cause?.message ?? code} (${code})`;
  return error.cause?.message ?? error.message ?? String(err);
}
