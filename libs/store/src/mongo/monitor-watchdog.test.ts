import { EventEmitter } from "node:events";
import type { MongoClient } from "mongodb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchMonitor } from "./monitor-watchdog.ts";

const described = (type: string) => ({ newDescription: { type } });

describe("the driver monitor watchdog", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("replaces a client whose server stays unknown while its monitor reports no heartbeat", () => {
    const client = new EventEmitter();
    const stalled = vi.fn();
    const watch = watchMonitor(client as unknown as MongoClient, stalled);
    client.emit("serverDescriptionChanged", described("Unknown"));
    vi.advanceTimersByTime(20_000);
    expect(stalled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    expect(stalled).toHaveBeenCalled();
    watch.stop();
  });

  it("leaves alone a monitor that keeps checking an unreachable server, and a reachable one", () => {
    const client = new EventEmitter();
    const stalled = vi.fn();
    const watch = watchMonitor(client as unknown as MongoClient, stalled);
    client.emit("serverDescriptionChanged", described("Unknown"));
    for (let i = 0; i < 12; i++) {
      vi.advanceTimersByTime(5_000);
      client.emit("serverHeartbeatFailed", {});
    }
    client.emit("serverDescriptionChanged", described("Standalone"));
    vi.advanceTimersByTime(120_000);
    expect(stalled).not.toHaveBeenCalled();
    watch.stop();
  });

  it("watches the replacement client from the moment it follows it", () => {
    const first = new EventEmitter();
    const second = new EventEmitter();
    const stalled = vi.fn();
    const watch = watchMonitor(first as unknown as MongoClient, stalled);
    first.emit("serverDescriptionChanged", described("Unknown"));
    vi.advanceTimersByTime(20_000);
    watch.follow(second as unknown as MongoClient);
    vi.advanceTimersByTime(20_000);
    expect(stalled).not.toHaveBeenCalled();
    second.emit("serverDescriptionChanged", described("Unknown"));
    vi.advanceTimersByTime(30_000);
    expect(stalled).toHaveBeenCalledTimes(1);
    watch.stop();
  });
});
