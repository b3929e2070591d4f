import type { Logger } from "@payrail/runtime";

/** Lines about skipped requests are at most this frequent: a backlog must not become a log flood. */
const LOG_EVERY_MS = 1_000;

/**
 * Counts the requests a server skipped because their caller's deadline had passed, and says
 * so at warn level. Requests expire in bulk when a service falls behind, so the line is
 * written at most once a second and carries how many were skipped since the previous one.
 */
export class ExpiredRequests {
  private total = 0;
  private sinceLastLine = 0;
  private lastLineAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly logger: Logger) {}

  /** Requests skipped since this server started. */
  get count(): number {
    return this.total;
  }

  record(pattern: string, requestId: string, lateMs: number): void {
    this.total += 1;
    this.sinceLastLine += 1;
    const now = Date.now();
    if (now - this.lastLineAt < LOG_EVERY_MS) return;
    this.logger.warn(
      { pattern, requestId, lateMs, skipped: this.sinceLastLine, skippedTotal: this.total },
      "skipped RPC request past its deadline",
    );
    this.sinceLastLine = 0;
    this.lastLineAt = now;
  }
}
