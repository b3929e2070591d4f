/** What one delivery attempt came to, as `/metrics` counts it. */
export type AttemptOutcome = "succeeded" | "failed" | "endpoint_disabled";

/**
 * Delivery attempts by outcome since the process started (a failed attempt that also disabled
 * its endpoint counts as both `failed` and `endpoint_disabled`). One per process, shared by the
 * webhooks services it runs, and read by the process's metrics when they are scraped.
 */
export class DeliveryStats {
  private readonly counts: Record<AttemptOutcome, number> = { succeeded: 0, failed: 0, endpoint_disabled: 0 };

  count(outcome: AttemptOutcome): void {
    this.counts[outcome]++;
  }

  snapshot(): Readonly<Record<AttemptOutcome, number>> {
    return { ...this.counts };
  }
}

/** This process's delivery counts. */
export const deliveryStats = new DeliveryStats();
