import { AppError } from "@payrail/contracts";
import { addressBucket } from "./address-bucket.ts";
import type { SendBudgetsPort } from "./ports/send-budgets.port.ts";
import { HOUR_MS } from "./verification-code.ts";

/** The budgets of API.md §12 beyond the per-phone rules: sends per client address and in total, per hour. */
export interface SendCodeBudgets {
  perAddressPerHour: number;
  perHour: number;
}

/** Which limit refused a send_code, as /metrics counts it. */
export type SendCodeLimit = "phone" | "address" | "total";

/** Refused send_code requests by limit since the process started; read by the process's /metrics. */
export class SendCodeLimitStats {
  private readonly counts: Record<SendCodeLimit, number> = { phone: 0, address: 0, total: 0 };

  count(limit: SendCodeLimit): void {
    this.counts[limit]++;
  }

  snapshot(): Readonly<Record<SendCodeLimit, number>> {
    return { ...this.counts };
  }
}

export const sendCodeLimitStats = new SendCodeLimitStats();

const TOTAL_BUCKET = "total";

/**
 * Takes one send from the client address's hourly budget, then from the total one, in fixed
 * UTC-hour windows; a refusal is 429 `rate_limited` with `Retry-After` = the rest of the hour.
 * The address goes first, so one client past its own budget cannot use up everyone's; a send
 * the total refuses is given back to the address.
 */
export async function takeSendBudgets(
  deps: { budgets: SendBudgetsPort; limits: SendCodeBudgets; stats: SendCodeLimitStats },
  clientAddress: string | undefined,
  now: number,
): Promise<void> {
  const start = Math.floor(now / HOUR_MS) * HOUR_MS;
  const windowStart = new Date(start).toISOString();
  const expiresAt = new Date(start + HOUR_MS).toISOString();
  const retryAfter = Math.max(1, Math.ceil((start + HOUR_MS - now) / 1000));
  const bucket = addressBucket(clientAddress);
  if (bucket && !(await deps.budgets.take(bucket, windowStart, deps.limits.perAddressPerHour, expiresAt))) {
    deps.stats.count("address");
    throw new AppError("rate_limited", `too many codes requested from this address; retry in ${retryAfter} s`, { retryAfter });
  }
  if (!(await deps.budgets.take(TOTAL_BUCKET, windowStart, deps.limits.perHour, expiresAt))) {
    if (bucket) await deps.budgets.giveBack(bucket, windowStart);
    deps.stats.count("total");
    throw new AppError("rate_limited", `verification codes are paused for everyone; retry in ${retryAfter} s`, { retryAfter });
  }
}
