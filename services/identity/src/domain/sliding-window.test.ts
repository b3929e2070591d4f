import { describe, expect, it } from "vitest";
import { msUntilRoom, slotExpiry, slotsAt, type SlidingWindow } from "./sliding-window.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const window: SlidingWindow = { windowMs: HOUR, slotMs: 5 * MINUTE };
const T0 = Date.parse("2030-01-01T10:00:00.000Z");

describe("sliding windows of slot counters", () => {
  it("binds the current slot and every slot that may hold a send of the last hour", () => {
    const slots = slotsAt(window, T0 + 7 * MINUTE);
    expect(slots).toHaveLength(13);
    expect(slots[0]).toBe(T0 + 5 * MINUTE - HOUR);
    expect(slots[12]).toBe(T0 + 5 * MINUTE);
  });

  it("keeps a send counting across a fixed hour's edge, for a whole hour after its slot", () => {
    const sentAt = T0 - MINUTE; // 09:59
    const slot = Math.floor(sentAt / window.slotMs) * window.slotMs;
    expect(slotsAt(window, T0 + 1_000)).toContain(slot);
    expect(slotsAt(window, sentAt + HOUR)).toContain(slot);
    expect(slotExpiry(window, slot)).toBe(T0 + HOUR);
    expect(slotsAt(window, T0 + HOUR)).not.toContain(slot);
  });

  it("says when enough old slots have left for one more", () => {
    const counts = [
      { slot: T0 - HOUR, count: 2 },
      { slot: T0 - 30 * MINUTE, count: 1 },
      { slot: T0, count: 1 },
    ];
    // 4 counted, limit 3: the first slot (2) must leave, at its expiry.
    expect(msUntilRoom(window, counts, 3, T0 + MINUTE)).toBe(slotExpiry(window, T0 - HOUR) - (T0 + MINUTE));
    // Limit 2: the first two slots must leave.
    expect(msUntilRoom(window, counts, 2, T0 + MINUTE)).toBe(slotExpiry(window, T0 - 30 * MINUTE) - (T0 + MINUTE));
    expect(msUntilRoom(window, counts, 5, T0 + MINUTE)).toBe(0);
  });
});
