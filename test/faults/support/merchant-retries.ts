/**
 * Whether a careful merchant sends a request again after this answer: no answer at all (status
 * 0), a 5xx, or a 409 that says an earlier try still holds the work (`transfer_in_progress`, or
 * `idempotency_key_in_use` for a try whose answer was lost). Any other 4xx is the request's own.
 */
export function merchantRetries(status: number, text: string): boolean {
  return status === 0 || status >= 500 || (status === 409 && /transfer_in_progress|idempotency_key_in_use/.test(text));
}
