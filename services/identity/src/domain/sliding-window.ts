/**
 * A sliding window kept as one counter per slot (docs/decisions/0003-send-code-budgets.md): a
 * send counts from its slot's start until a whole window has passed since its slot's end, so
 * no span of `windowMs` ever holds more than the limit, at a fixed edge or anywhere else.
 */
export interface SlidingWindow {
  windowMs: number;
  /** A divisor of `windowMs`: a finer slot frees room sooner but costs more counters to read. */
  slotMs: number;
}

/** One slot's counter: its start (epoch ms) and the sends counted in it. */
export interface SlotCount {
  slot: number;
  count: number;
}

/** The slots whose counts bind at `now`, oldest first; the last is the current one. */
export function slotsAt(window: SlidingWindow, now: number): number[] {
  const current = Math.floor(now / window.slotMs) * window.slotMs;
  const slots: number[] = [];
  // The oldest holds `now - windowMs`: part of it may still lie within the window.
  for (let slot = current - window.windowMs; slot <= current; slot += window.slotMs) slots.push(slot);
  return slots;
}

/** When a slot's sends stop counting. */
export function slotExpiry(window: SlidingWindow, slot: number): number {
  return slot + window.slotMs + window.windowMs;
}

/** How long from `now` until these counts (oldest first) fall below `limit` as their slots leave the window. */
export function msUntilRoom(window: SlidingWindow, counts: readonly SlotCount[], limit: number, now: number): number {
  let total = counts.reduce((sum, c) => sum + c.count, 0);
  for (const { slot, count } of counts) {
    if (total < limit) break;
    total -= count;
    if (total < limit) return Math.max(0, slotExpiry(window, slot) - now);
  }
  return 0;
}
