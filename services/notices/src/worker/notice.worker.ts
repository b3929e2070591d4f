import { LeaseLost, prefixedHexId, withLeaseHeartbeat } from "@payrail/runtime";
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
export class NoticeWorker {
  private readonly pollMs: number;
  private readonly maxInFlight: number;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: NoticesDeps,
    options: NoticeWorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.maxInFlight = options.maxInFlight ?? 32;
  }

  start(): void {
    this.schedule(0);
  }

  /** New notices were written, or a slot came free: look now. */
  notify(): void {
    if (this.stopped) return;
    if (this.ticking) this.again = true;
    else this.schedule(0);
  }

  /** Stops claiming, then waits for the sends in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const free = this.maxInFlight - this.running.size;
      const now = this.deps.now();
      const due = free > 0 ? await this.deps.notices.due(now.toISOString(), free) : [];
      for (const notice of due) {
        if (this.stopped) break;
        const leaseId = prefixedHexId("lease_");
        const until = new Date(now.getTime() + this.deps.policy.leaseMs);
        if (await this.deps.notices.claim(notice, leaseId, until.toISOString())) this.run(notice, leaseId, until);
      }
    } catch (err) {
      this.deps.logger.error({ err }, "notice poll failed");
    } finally {
      this.ticking = false;
      if (!this.stopped) this.schedule(this.again ? 0 : this.pollMs);
      this.again = false;
    }
  }

  private run(notice: NoticeDoc, leaseId: string, until: Date): void {
    const { deps } = this;
    const heartbeat = {
      leaseMs: deps.policy.leaseMs,
      until,
      now: deps.now,
      renew: (to: Date) => deps.notices.renew(notice._id, leaseId, to.toISOString()),
      onLost: (reason: string) => deps.logger.warn({ noticeId: notice._id, reason }, "notice claim lost; another worker takes it over"),
      onRenewError: (err: unknown) => deps.logger.warn({ err, noticeId: notice._id }, "could not renew a notice claim; trying again"),
    };
    const running: Promise<void> = withLeaseHeartbeat(heartbeat, (lease) => attemptNotice(deps, notice, leaseId, lease))
      .catch((err: unknown) => {
        // Lost claims were logged when lost; the worker that took the notice over sends it.
        if (!(err instanceof LeaseLost)) deps.logger.error({ err, noticeId: notice._id }, "notice attempt failed to record");
      })
      .finally(() => {
        this.running.delete(running);
        this.notify();
      });
    this.running.add(running);
  }
}
