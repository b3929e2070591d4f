import type { RequestBudgetsPort } from "./ports/request-budgets.port.ts";

/**
 * A gateway's block of one key's request budget for one window
 * (docs/decisions/0049-shared-request-limits.md). The counter outlives its window by one more
 * window, so a gateway whose clock runs a little behind still finds it, then the sweep takes it.
 */
export function reserveRequests(
  deps: { requestBudgets: RequestBudgetsPort },
  request: { key: string; window_start: number; window_ms: number; limit: number; count: number },
): Promise<{ granted: number; reserved: number }> {
  const expiresAt = new Date(request.window_start + 2 * request.window_ms).toISOString();
  return deps.requestBudgets.reserve(`${request.key}@${request.window_start}`, request.limit, request.count, expiresAt);
}
