import { LeaseLost, PollingWorker, prefixedHexId, withLeaseHeartbeat } from "@payrail/runtime";
import { attemptNotice } from "../domain/send-notice.use-case.ts";
import type { NoticeDoc } from "../domain/notice.entity.ts";
import type { NoticesDeps } from "../domain/notices.deps.ts";

export interface NoticeWorkerOptions {
  /** How often it looks for due notices when not told of new ones. Default 1 s. */
  pollMs?: number;
  /** Sends in flight at once in this process. Default 32. */
  maxInFlight?: number;
}

/**
 * Sends due notices. Each is claimed with one conditional write (a lease on its due time,
 * renewed while the send runs), so replicas never send the same notice at once, and a notice
 * whose worker died is due again when the lease ends (sent at least once).
 */
export class NoticeWorker extends PollingWorker {
  private readonly maxInFlight: number;

  constructor(
    private readonly deps: NoticesDeps,
    options: NoticeWorkerOptions = {},
  ) {
    super(options.pollMs ?? 1_000, (err) => deps.logger.error({ err }, "notice poll failed"));
    this.maxInFlight = options.maxInFlight ?? 32;
  }

  protected async claimDue(): Promise<void> {
    const free = this.maxInFlight - this.running.size;
    if (free <= 0) return;
    const now = this.deps.now();
    for (const notice of await this.deps.notices.due(now.toISOString(), free)) {
      if (this.stopped) break;
      const leaseId = prefixedHexId("lease_");
      const until = new Date(now.getTime() + this.deps.policy.leaseMs);
      if (await this.deps.notices.claim(notice, leaseId, until.toISOString())) this.track(this.attemptUnderLease(notice, leaseId, until));
    }
  }

  /** The send, its claim renewed meanwhile: a killed worker's notice is due again within one lease. */
  private async attemptUnderLease(notice: NoticeDoc, leaseId: string, until: Date): Promise<void> {
    const { deps } = this;
    const heartbeat = {
      leaseMs: deps.policy.leaseMs,
      until,
      now: deps.now,
      renew: (to: Date) => deps.notices.renew(notice._id, leaseId, to.toISOString()),
      // Due now, under this claim's id no more once another worker claims it.
      release: () => deps.notices.renew(notice._id, leaseId, deps.now().toISOString()),
      onLost: (reason: string) => deps.logger.warn({ noticeId: notice._id, reason }, "notice claim lost; another worker takes it over"),
      onRenewError: (err: unknown) => deps.logger.warn({ err, noticeId: notice._id }, "could not renew a notice claim; trying again"),
    };
    try {
      await withLeaseHeartbeat(heartbeat, (lease) => attemptNotice(deps, notice, leaseId, lease));
    } catch (err) {
      // Lost claims were logged when lost; the worker that took the notice over sends it.
      if (!(err instanceof LeaseLost)) deps.logger.error({ err, noticeId: notice._id }, "notice attempt failed to record");
    }
  }
}
