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
  responseBody: string | null;
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
    response_body: doc.responseBody,
    attempted_at: doc.attemptedAt,
    next_retry_at: doc.nextRetryAt,
  };
}
