import { describe, expect, it } from "vitest";
import { blockOf, capOf, land, remainingOf, SharedWindows, UNSHARED_BACKOFF_MS, wantOf, wantsMore, type Reservation, type SharedWindow } from "./shared-windows.ts";

const MINUTE = 60_000;

/** A shared counter in memory that answers only when the test says so. */
function counter(limit: number) {
  let reserved = 0;
  const waiting: { count: number; settle: (answer: Reservation) => void; fail: (err: Error) => void }[] = [];
  const asked: number[] = [];
  return {
    asked,
    pending: () => waiting.length,
    reserve: (_key: string, _windowStart: number, count: number) =>
      new Promise<Reservation>((settle, fail) => {
        asked.push(count);
        waiting.push({ count, settle, fail });
      }),
    /** Answers the oldest reservation as the store would, and lets its `then` run. */
    async answer() {
      const next = waiting.shift()!;
      const granted = Math.max(0, Math.min(next.count, limit - reserved));
      reserved += granted;
      next.settle({ granted, reserved });
      await new Promise((resolve) => setImmediate(resolve));
    },
    async fail() {
      waiting.shift()!.fail(new Error("store down"));
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Another gateway's reservation. */
    take(count: number) {
      reserved += Math.min(count, limit - reserved);
    },
  };
}

function window(over: Partial<SharedWindow> = {}): SharedWindow {
  return { openedAt: 0, count: 0, ok: true, remaining: 0, granted: 0, others: 0, inFlight: false, answered: true, spent: false, local: false, ...over };
}

describe("shared windows: the reservation arithmetic", () => {
  it("reserves a tenth of the budget at a time, at least one", () => {
    expect(blockOf(600)).toBe(60);
    expect(blockOf(25)).toBe(2);
    expect(blockOf(5)).toBe(1);
  });

  it("caps a window at the limit before its first answer or when unshared, at what was granted once spent, else one block of credit over it", () => {
    expect(capOf(window({ answered: false }), 600, 60)).toBe(600);
    expect(capOf(window({ local: true, granted: 61 }), 600, 60)).toBe(600);
    expect(capOf(window({ spent: true, granted: 61 }), 600, 60)).toBe(61);
    expect(capOf(window({ granted: 121 }), 600, 60)).toBe(181);
    expect(capOf(window({ granted: 590 }), 600, 60)).toBe(600);
  });

  it("asks for the next block once half of the current one is used, charging what was counted on credit", () => {
    expect(wantsMore(window({ granted: 61, count: 30 }), 60)).toBe(false);
    expect(wantsMore(window({ granted: 61, count: 31 }), 60)).toBe(true);
    expect(wantsMore(window({ granted: 61, count: 31, inFlight: true }), 60)).toBe(false);
    expect(wantsMore(window({ granted: 61, count: 31, spent: true }), 60)).toBe(false);
    expect(wantsMore(window({ granted: 61, count: 31, local: true }), 60)).toBe(false);
    expect(wantOf(window({ granted: 61, count: 31 }), 60)).toBe(60);
    expect(wantOf(window({ granted: 0, count: 25 }), 60)).toBe(85);
  });

  it("books an answer: granted and what the others hold, spent when it granted less than asked", () => {
    const w = window({ inFlight: true, answered: false, count: 5 });
    land(w, 65, { granted: 65, reserved: 200 });
    expect(w).toMatchObject({ inFlight: false, answered: true, granted: 65, others: 135, spent: false });
    land(w, 60, { granted: 20, reserved: 600 });
    expect(w).toMatchObject({ granted: 85, others: 515, spent: true });
  });

  it("tells the client what is left as far as this gateway knows", () => {
    expect(remainingOf(window({ count: 10, others: 100 }), 600)).toBe(490);
    expect(remainingOf(window({ count: 10, granted: 15, spent: true }), 600)).toBe(5);
    expect(remainingOf(window({ count: 10, local: true }), 600)).toBe(590);
    expect(remainingOf(window({ count: 10, ok: false }), 600)).toBe(0);
  });
});

describe("SharedWindows", () => {
  it("counts requests before the first answer against the whole limit, then charges them to the reservations", async () => {
    const shared = counter(100);
    const windows = new SharedWindows(100, MINUTE, shared.reserve, () => {}, 5_000, () => 0);
    for (let i = 0; i < 25; i++) expect(windows.hit("k", 1_000).ok).toBe(true);
    expect(shared.asked).toEqual([11]); // the first request and a block of 10; one reservation on its way at a time
    await shared.answer();
    // 25 counted, 11 granted: the credit is charged by the next reservation at once.
    expect(shared.asked).toEqual([11, 24]);
    await shared.answer();
    const w = windows.hit("k", 1_000);
    expect(w).toMatchObject({ count: 26, granted: 35, ok: true, remaining: 74 });
  });

  it("refuses past what was granted once the shared budget is spent, whatever the other gateways left unused", async () => {
    const shared = counter(20);
    const windows = new SharedWindows(20, MINUTE, shared.reserve, () => {}, 5_000, () => 0);
    windows.hit("k", 0);
    await shared.answer(); // 3 granted (1 + a block of 2)
    shared.take(15); // another gateway's blocks
    let served = 1;
    for (let i = 0; i < 10; i++) {
      if (windows.hit("k", 0).ok) served += 1;
      while (shared.pending() > 0) await shared.answer();
    }
    // 3 + the 2 the other gateway left: the budget's 20 in all across both.
    expect(served).toBe(5);
    const refused = windows.hit("k", 0);
    expect(refused).toMatchObject({ ok: false, remaining: 0, spent: true });
  });

  it("serves at most one block of credit while a later reservation is on its way", async () => {
    const shared = counter(600);
    const windows = new SharedWindows(600, MINUTE, shared.reserve, () => {}, 5_000, () => 0);
    windows.hit("k", 0);
    await shared.answer(); // 61 granted
    let served = 1;
    for (let i = 0; i < 200; i++) if (windows.hit("k", 0).ok) served += 1;
    // 61 granted + 60 on credit; the reservation asked at 31 is still unanswered.
    expect(served).toBe(121);
    expect(shared.pending()).toBe(1);
  });

  it("opens windows on the clock's boundaries, so every gateway names the same one", () => {
    const shared = counter(600);
    const windows = new SharedWindows(600, MINUTE, shared.reserve, () => {}, 5_000, () => 0);
    expect(windows.hit("k", 61_500).openedAt).toBe(60_000);
    expect(windows.hit("k", 119_999).openedAt).toBe(60_000);
    expect(windows.hit("k", 120_000)).toMatchObject({ openedAt: 120_000, count: 1 });
  });

  it("counts locally when the counter cannot be reached (fail-open), and does not ask again for new windows for a while", async () => {
    const shared = counter(10);
    let clock = 0;
    const failures: boolean[] = [];
    const windows = new SharedWindows(10, MINUTE, shared.reserve, (_err, first) => failures.push(first), 5_000, () => clock);
    windows.hit("a", 0);
    await shared.fail();
    let served = 1;
    for (let i = 0; i < 15; i++) if (windows.hit("a", 0).ok) served += 1;
    expect(served).toBe(10);
    expect(failures).toEqual([true]);
    windows.hit("b", 0); // a new key within the backoff: local at once
    expect(shared.pending()).toBe(0);
    clock = UNSHARED_BACKOFF_MS;
    windows.hit("c", UNSHARED_BACKOFF_MS); // past it: asks again
    expect(shared.pending()).toBe(1);
  });

  it("says a failing credential is full without counting it", async () => {
    const shared = counter(3);
    const windows = new SharedWindows(3, MINUTE, shared.reserve, () => {}, 5_000, () => 0);
    expect(windows.full("k", 0)).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      windows.hit("k", 0);
      while (shared.pending() > 0) await shared.answer();
    }
    expect(windows.full("k", 0)).toMatchObject({ count: 3 });
    expect(windows.full("k", MINUTE)).toBeUndefined();
  });
});
