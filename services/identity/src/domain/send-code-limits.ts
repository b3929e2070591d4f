import { AppError } from "@payrail/contracts";
import { addressBucket } from "@payrail/runtime";
import { callingCodeOf } from "./phone-number.ts";
import type { SendBudgetsPort } from "./ports/send-budgets.port.ts";
import { msUntilRoom, slotExpiry, slotsAt, type SlidingWindow } from "./sliding-window.ts";
import { HOUR_MS } from "./verification-code.ts";

/**
 * The send_code budgets beyond the per-phone rules, each per sliding hour
 * (docs/decisions/0003-send-code-budgets.md): per client address; and for phones that never
 * verified, per country calling code and in total.
 */
export interface SendCodeBudgets {
  perAddressPerHour: number;
  /** Each country calling code's share of `perHour`. */
  perCountryPerHour: number;
  perHour: number;
}

/** A calling code's share when none is configured: a flood to one code leaves the rest to the others. */
export const COUNTRY_SHARE = 0.25;

/** The budgets as configured, a calling code's share following the total unless set. */
export function sendCodeBudgets(configured: Omit<SendCodeBudgets, "perCountryPerHour"> & { perCountryPerHour?: number | undefined }): SendCodeBudgets {
  const perCountryPerHour = configured.perCountryPerHour ?? Math.max(1, Math.ceil(configured.perHour * COUNTRY_SHARE));
  return { ...configured, perCountryPerHour };
}

/** Which limit refused a send_code, as /metrics counts it. */
export type SendCodeLimit = "phone" | "address" | "country" | "total";

/** Refused send_code requests by limit since the process started; read by the process's /metrics. */
export class SendCodeLimitStats {
  private readonly counts: Record<SendCodeLimit, number> = { phone: 0, address: 0, country: 0, total: 0 };

  count(limit: SendCodeLimit): void {
    this.counts[limit]++;
  }

  snapshot(): Readonly<Record<SendCodeLimit, number>> {
    return { ...this.counts };
  }
}

export const sendCodeLimitStats = new SendCodeLimitStats();

/** An hour, in twelve 5-minute slots: 13 counters read per budget and send. */
export const SEND_WINDOW: SlidingWindow = { windowMs: HOUR_MS, slotMs: 5 * 60_000 };

/** One budget a send draws on. */
interface Budget {
  bucket: string;
  limit: number;
  kind: Exclude<SendCodeLimit, "phone">;
  refusal: string;
}

/** Who asks for the code, and for which phone. */
export interface SendRequest {
  clientAddress: string | undefined;
  /** E.164. */
  phone: string;
  /** The phone verified before (every phone with a payment did): outside the country and total budgets. */
  returning: boolean;
}

/**
 * Takes one send from each budget in turn: the client address's, then (for a phone that never
 * verified) its calling code's and the total. The address goes first, so one client past its
 * own budget cannot use up anyone else's; a refusal gives back what the earlier budgets took.
 * A refusal is 429 `rate_limited` with `Retry-After` = until the window has room again.
 */
export async function takeSendBudgets(
  deps: { budgets: SendBudgetsPort; limits: SendCodeBudgets; stats: SendCodeLimitStats },
  request: SendRequest,
  now: number,
): Promise<void> {
  const taken: { bucket: string; slot: string }[] = [];
  for (const budget of budgetsOf(deps.limits, request)) {
    const outcome = await takeSliding(deps.budgets, budget, now);
    if (outcome.taken) {
      taken.push({ bucket: budget.bucket, slot: outcome.slot });
      continue;
    }
    for (const t of taken) await deps.budgets.giveBack(t.bucket, t.slot);
    deps.stats.count(budget.kind);
    const retryAfter = Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
    throw new AppError("rate_limited", `${budget.refusal}; retry in ${retryAfter} s`, { retryAfter });
  }
}

function budgetsOf(limits: SendCodeBudgets, request: SendRequest): Budget[] {
  const budgets: Budget[] = [];
  const address = addressBucket(request.clientAddress);
  if (address) budgets.push({ bucket: address, limit: limits.perAddressPerHour, kind: "address", refusal: "too many codes requested from this address" });
  if (request.returning) return budgets;
  const code = callingCodeOf(request.phone) ?? "unknown";
  budgets.push(
    { bucket: `country:+${code}`, limit: limits.perCountryPerHour, kind: "country", refusal: `codes to new +${code} numbers are paused` },
    { bucket: "total", limit: limits.perHour, kind: "total", refusal: "codes to new numbers are paused" },
  );
  return budgets;
}

/**
 * One send against a sliding-window budget: the counts of the earlier slots still in the
 * window are read, and the current slot is counted by one conditional write that holds it to
 * what they left. Earlier slots no longer change (but for a send racing a slot's end).
 */
async function takeSliding(port: SendBudgetsPort, budget: Budget, now: number): Promise<{ taken: true; slot: string } | { taken: false; retryAfterMs: number }> {
  const slots = slotsAt(SEND_WINDOW, now);
  const current = slots[slots.length - 1]!;
  const iso = (slot: number) => new Date(slot).toISOString();
  const counts = await port.counts(budget.bucket, slots.map(iso));
  const seen = slots.map((slot) => ({ slot, count: counts.get(iso(slot)) ?? 0 }));
  const left = budget.limit - seen.slice(0, -1).reduce((sum, c) => sum + c.count, 0);
  if (left > 0 && (await port.take(budget.bucket, iso(current), left, iso(slotExpiry(SEND_WINDOW, current))))) return { taken: true, slot: iso(current) };
  // Refused: the current slot holds at least what the earlier ones left.
  seen[seen.length - 1]!.count = Math.max(seen[seen.length - 1]!.count, left);
  return { taken: false, retryAfterMs: msUntilRoom(SEND_WINDOW, seen, budget.limit, now) };
}
