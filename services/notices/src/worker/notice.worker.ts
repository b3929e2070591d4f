import { LeaseLost, PollingWorker, prefixedHexId, withLeaseHeartbeat } from "@payrail/runtime";
import { attemptNotice } from "../domain/send-notice.use-case.ts";
import type { NoticeDoc } from "../domain/notice.entity.ts";
import type { NoticesDeps } from "../domain/notices.deps.ts";

export interface NoticeWorkerOptions {
  /** How often it looks for due notices when not told of new ones. Default 1 s. */
  pollMs?: number;
  /** Sends in flight at once in this process. Default 32. */
  maxInFlight?: number;
  /** Notices this process wrote under its claim that wait here for a free slot. Default 1,000. */
  maxWaiting?: number;
}

interface Claimed {
  notice: NoticeDoc;
  leaseId: string;
  until: Date;
}

/**
 * Sends notices. One this process writes is written already claimed (a lease on its due time)
 * and sent from here: at once, or from a bounded queue when every slot is busy. Others (a
 * retry's, a dead process's once its lease ends) are found by the poll and claimed with one
 * conditional write. Claims are renewed while the send runs, so replicas never send the same
 * notice at once, and a notice whose worker died is due again when the lease ends (sent at
 * least once).
 */
export class NoticeWorker extends PollingWorker {
  private readonly maxInFlight: number;
  private readonly maxWaiting: number;
  private readonly waiting: Claimed[] = [];

  constructor(
    private readonly deps: NoticesDeps,
    options: NoticeWorkerOptions = {},
  ) {
    super(options.pollMs ?? 1_000, (err) => deps.logger.error({ err }, "notice poll failed"));
    this.maxInFlight = options.maxInFlight ?? 32;
    this.maxWaiting = options.maxWaiting ?? 1_000;
  }

  /**
   * A notice this process wrote under its own claim: sent now when a slot is free, else queued
   * here. Past the queue's bound, or when stopping, the claim is given back (due now), so a poll
   * here or on another replica takes it at once rather than when the claim runs out.
   */
  sendClaimed(notice: NoticeDoc, until: Date): void {
    const leaseId = notice.leaseId;
    if (leaseId === null) return;
    if (this.stopped || this.waiting.length >= this.maxWaiting) return this.giveBack({ notice, leaseId, until });
    if (this.running.size < this.maxInFlight && this.waiting.length === 0) this.track(this.attemptUnderLease(notice, leaseId, until), () => this.nextWaiting(), false);
    else this.waiting.push({ notice, leaseId, until });
  }

  /** Gives the queued claims back, then waits for the sends in flight. */
  override async stop(): Promise<void> {
    for (const claimed of this.waiting.splice(0)) this.giveBack(claimed);
    await super.stop();
  }

  protected async claimDue(): Promise<void> {
    await this.startWaiting();
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

  /**
   * The queued claims first, oldest first. One that waited past half its lease is renewed
   * before its send (a claim that ran out may be another replica's by now: then it is dropped).
   */
  private async startWaiting(): Promise<void> {
    while (!this.stopped && this.running.size < this.maxInFlight && this.waiting.length > 0) {
      const claimed = this.waiting.shift()!;
      const now = this.deps.now().getTime();
      let until = claimed.until;
      if (until.getTime() - now < this.deps.policy.leaseMs / 2) {
        until = new Date(now + this.deps.policy.leaseMs);
        if (!(await this.deps.notices.renew(claimed.notice._id, claimed.leaseId, until.toISOString()))) continue;
      }
      this.track(this.attemptUnderLease(claimed.notice, claimed.leaseId, until));
    }
  }

  /** A send of this process's own claim ended: a look only when claims wait for its slot. */
  private nextWaiting(): void {
    if (this.waiting.length > 0) this.notify();
  }

  private giveBack({ notice, leaseId }: Claimed): void {
    const due = this.deps.notices.renew(notice._id, leaseId, this.deps.now().toISOString()).then(
      () => undefined,
      (err: unknown) => this.deps.logger.warn({ err, noticeId: notice._id }, "could not give a notice's claim back; it is due when the claim runs out"),
    );
    this.track(due);
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
