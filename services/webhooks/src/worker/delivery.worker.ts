import { LeaseLost, PollingWorker, prefixedHexId, withLeaseHeartbeat } from "@payrail/runtime";
import { attemptDelivery } from "../domain/deliver-attempt.use-case.ts";
import type { DeliveryDoc } from "../domain/delivery.entity.ts";
import type { WebhooksDeps } from "../domain/webhooks.deps.ts";

export interface DeliveryWorkerOptions {
  /** How often it looks for due deliveries when not told of new ones. Default 1 s. */
  pollMs?: number;
  /** Attempts in flight at once in this process. Default 64. */
  maxInFlight?: number;
  /** Attempts in flight at once to one endpoint. Default 4. */
  perEndpoint?: number;
}

/**
 * Sends due deliveries. Each is claimed with one conditional write (a lease, renewed while the
 * attempt runs), so replicas never send the same delivery at once, and a delivery whose worker
 * died is due again when the lease ends. Attempts run concurrently with a cap per endpoint: a slow or dead endpoint
 * fills only its own slots (each attempt ends by the timeout), and the poll skips endpoints
 * whose slots are full, so other endpoints' deliveries go on.
 */
export class DeliveryWorker extends PollingWorker {
  private readonly maxInFlight: number;
  private readonly perEndpoint: number;
  private readonly perEndpointInFlight = new Map<string, number>();

  constructor(
    private readonly deps: WebhooksDeps,
    options: DeliveryWorkerOptions = {},
  ) {
    super(options.pollMs ?? 1_000, (err) => deps.logger.error({ err }, "webhook delivery poll failed"));
    this.maxInFlight = options.maxInFlight ?? 64;
    this.perEndpoint = options.perEndpoint ?? 4;
  }

  protected async claimDue(): Promise<void> {
    const free = this.maxInFlight - this.running.size;
    if (free <= 0) return;
    const full = [...this.perEndpointInFlight].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
    const now = this.deps.now();
    const due = await this.deps.deliveries.due(now.toISOString(), full, free);
    for (const delivery of due) {
      if (this.stopped || this.running.size >= this.maxInFlight) break;
      if ((this.perEndpointInFlight.get(delivery.endpointId) ?? 0) >= this.perEndpoint) continue;
      const leaseId = prefixedHexId("lease_");
      const leaseUntil = new Date(now.getTime() + this.deps.policy.leaseMs);
      const claimed = await this.deps.deliveries.claim(delivery, leaseId, leaseUntil.toISOString());
      if (claimed) this.run(claimed.endpointId, () => this.attemptUnderLease(delivery, leaseId, leaseUntil));
    }
  }

  /** The attempt, its claim renewed meanwhile: a slow endpoint keeps it, a killed worker's runs out within one lease. */
  private async attemptUnderLease(delivery: DeliveryDoc, leaseId: string, until: Date): Promise<void> {
    const { deps } = this;
    const heartbeat = {
      leaseMs: deps.policy.leaseMs,
      until,
      now: deps.now,
      renew: (to: Date) => deps.deliveries.renew(delivery._id, leaseId, to.toISOString()),
      // Due now, under this claim's id no more once another worker claims it.
      release: () => deps.deliveries.renew(delivery._id, leaseId, deps.now().toISOString()),
      // An attempt ends by its timeout (WEBHOOK_TIMEOUT, unbounded), then records itself.
      maxHoldMs: deps.policy.timeoutMs + 60_000,
      onLost: (reason: string) => deps.logger.warn({ deliveryId: delivery._id, reason }, "webhook delivery claim lost; another worker takes it over"),
      onRenewError: (err: unknown) => deps.logger.warn({ err, deliveryId: delivery._id }, "could not renew a webhook delivery claim; trying again"),
    };
    try {
      await withLeaseHeartbeat(heartbeat, (lease) => attemptDelivery(deps, delivery, leaseId, lease));
    } catch (err) {
      // Logged when it was lost; the worker that took the delivery over records it.
      if (!(err instanceof LeaseLost)) throw err;
    }
  }

  private run(endpointId: string, attempt: () => Promise<void>): void {
    this.perEndpointInFlight.set(endpointId, (this.perEndpointInFlight.get(endpointId) ?? 0) + 1);
    const work = attempt().catch((err: unknown) => this.deps.logger.error({ err, endpointId }, "webhook delivery attempt failed to record"));
    // A slot came free: deliveries skipped for lack of one may go now (track looks again).
    this.track(work, () => {
      const left = (this.perEndpointInFlight.get(endpointId) ?? 1) - 1;
      if (left > 0) this.perEndpointInFlight.set(endpointId, left);
      else this.perEndpointInFlight.delete(endpointId);
    });
  }
}
