/**
 * One event to send to one endpoint. `dueAt` is when the next attempt may start; a worker
 * claims it by moving `dueAt` to the end of its lease in one conditional write, so a crashed
 * worker's delivery is simply due again once the lease runs out.
 */
export interface DeliveryDoc {
  _id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  merchantId: string;
  status: "pending" | "succeeded" | "failed" | "cancelled";
  /** Attempts made so far. */
  attempts: number;
  dueAt: string;
  /** The claim of the worker on it now (null when none holds it). */
  leaseId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One attempt, kept for `GET /webhook_endpoints/{id}/deliveries`. */
export interface AttemptDoc {
  _id: string;
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  ok: boolean;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
  /** Kept only from a public address. */
  responseBody: string | null;
  /** Whether the answer came from a public address; absent on attempts recorded before it was kept. */
  fromPublicAddress?: boolean;
  attemptedAt: string;
  nextRetryAt: string | null;
}

export function toDeliveryAttempt(doc: AttemptDoc) {
  return {
    id: doc._id,
    event_id: doc.eventId,
    event_type: doc.eventType,
    attempt: doc.attempt,
    status: doc.ok ? ("succeeded" as const) : ("failed" as const),
    http_status: doc.httpStatus,
    duration_ms: doc.durationMs,
    error: doc.error,
    // Attempts recorded before private targets' bodies were dropped may hold one: shown only when known public.
    response_body: doc.fromPublicAddress === true ? doc.responseBody : null,
    attempted_at: doc.attemptedAt,
    next_retry_at: doc.nextRetryAt,
  };
}
