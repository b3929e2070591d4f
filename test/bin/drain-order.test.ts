import { describe, expect, it } from "vitest";
import { drainBoundMs, handlerDrainMs, type Stoppable } from "@payrail/runtime";
import { inDrainOrder } from "../../bin/drain-order.ts";

const part = (name: string, stopped: string[]): Stoppable => ({ name, stop: async () => void stopped.push(name) });

describe("the drain order and its bound", () => {
  it("stops the front first, then the consumers with two RPC deadlines for their handlers, then the services", async () => {
    const stopped: string[] = [];
    const graces: number[] = [];
    const transport = {
      stopServing: async (graceMs: number) => {
        stopped.push("consumers");
        graces.push(graceMs);
      },
    };
    const parts = inDrainOrder([part("payments", stopped), part("gateway", stopped), part("metrics-server", stopped)], transport, 7_000);
    // The stop list runs last first, as stopOnSignals does.
    for (const p of [...parts].reverse()) await p.stop();
    expect(stopped).toEqual(["metrics-server", "gateway", "consumers", "payments"]);
    expect(graces).toEqual([handlerDrainMs(7_000)]);
    expect(handlerDrainMs(7_000)).toBe(14_000);
  });

  it("bounds a gateway by its delay and one deadline, a domain service by two deadlines, a process running both by their sum", () => {
    expect(drainBoundMs({ rpcTimeoutMs: 10_000, drainDelayMs: 3_000, gateway: true, domain: false })).toBe(3_000 + 10_000 + 5_000);
    expect(drainBoundMs({ rpcTimeoutMs: 10_000, drainDelayMs: 3_000, gateway: false, domain: true })).toBe(20_000 + 5_000);
    expect(drainBoundMs({ rpcTimeoutMs: 10_000, drainDelayMs: 3_000, gateway: true, domain: true })).toBe(3_000 + 10_000 + 20_000 + 5_000);
  });
});
