/** What became of notices, as `/metrics` counts them (`suppressed`: an optional notice the consumer had unsubscribed from). */
export type NoticeOutcome = "sent" | "retried" | "failed" | "suppressed";

/** Notice attempts by outcome since the process started; one per process, read by its metrics. */
export class NoticeStats {
  private readonly counts: Record<NoticeOutcome, number> = { sent: 0, retried: 0, failed: 0, suppressed: 0 };

  count(outcome: NoticeOutcome): void {
    this.counts[outcome]++;
  }

  snapshot(): Readonly<Record<NoticeOutcome, number>> {
    return { ...this.counts };
  }
}

/** This process's notice counts. */
export const noticeStats = new NoticeStats();
