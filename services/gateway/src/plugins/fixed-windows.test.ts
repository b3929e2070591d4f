import { describe, expect, it } from "vitest";
import { FixedWindows } from "./fixed-windows.ts";

describe("FixedWindows", () => {
  it("counts a key's requests within its window and opens a new one when it ends", () => {
    const windows = new FixedWindows(60_000);
    expect(windows.hit("a", 1_000)).toEqual({ count: 1, openedAt: 1_000 });
    expect(windows.hit("a", 30_000)).toEqual({ count: 2, openedAt: 1_000 });
    expect(windows.hit("b", 30_000)).toEqual({ count: 1, openedAt: 30_000 });
    expect(windows.hit("a", 60_999)).toEqual({ count: 3, openedAt: 1_000 });
    expect(windows.hit("a", 61_000)).toEqual({ count: 1, openedAt: 61_000 });
  });

  it("forgets the least recently used key past its capacity", () => {
    const windows = new FixedWindows(60_000, 2);
    windows.hit("a", 0);
    windows.hit("b", 0);
    windows.hit("a", 1); // a is now the most recently used
    windows.hit("c", 2); // b goes
    expect(windows.hit("a", 3).count).toBe(3);
    expect(windows.hit("b", 3).count).toBe(1);
  });

  it("keeps counting and expiring a key hit many times in a row", () => {
    const windows = new FixedWindows(1_000, 2);
    for (let i = 0; i < 5; i++) windows.hit("a", i);
    expect(windows.hit("a", 999)).toEqual({ count: 6, openedAt: 0 });
    expect(windows.hit("a", 1_000)).toEqual({ count: 1, openedAt: 1_000 });
    windows.hit("b", 1_001);
    windows.hit("c", 1_002); // a, the least recently used, goes
    expect(windows.hit("a", 1_003).count).toBe(1);
  });
});
