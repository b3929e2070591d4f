import { pingOp } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { afterEach, describe, expect, it } from "vitest";
import { createInProcessBus, createInProcessTransport, handle, readinessProbe, SLOW_GRACE_MS, type Transport } from "../src/index.ts";

const transports: Transport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

/** A checkout service whose ping answers after `delay()` ms, and a caller on the same bus. */
async function world(delay: () => number) {
  const bus = createInProcessBus();
  const make = () => createInProcessTransport({ bus, logger: silentLogger(), closeGraceMs: 100 });
  const server = make();
  const client = make();
  transports.push(server, client);
  await server.serve("checkout", [
    handle(pingOp("checkout"), async () => {
      await new Promise((resolve) => setTimeout(resolve, delay()));
      return { service: "checkout", ok: true as const };
    }),
  ]);
  return client;
}

describe("readiness: the services answering their pings, or only slow", () => {
  it("is ready when every service answers; down for one with no consumer", async () => {
    const client = await world(() => 0);
    const probe = readinessProbe(client, ["checkout", "identity"]);
    expect(await probe("req_1")).toEqual({ ready: false, checks: { broker: "ok", checkout: "ok", identity: "down" } });
    expect(await readinessProbe(client, ["checkout"])("req_2")).toEqual({ ready: true, checks: { broker: "ok", checkout: "ok" } });
  });

  it("stays ready while a service that answered lately is slow, and is down once it has been silent for the grace", async () => {
    let delayMs = 0;
    let clock = 1_000_000;
    const client = await world(() => delayMs);
    const probe = readinessProbe(client, ["checkout"], () => clock);
    expect((await probe("req_1")).ready).toBe(true);

    // Slower than the ping's 2 s deadline: a burst every replica sees at once.
    delayMs = 2_500;
    clock += SLOW_GRACE_MS - 1;
    expect(await probe("req_2")).toEqual({ ready: true, checks: { broker: "ok", checkout: "slow" } });
    clock += 2;
    expect(await probe("req_3")).toEqual({ ready: false, checks: { broker: "ok", checkout: "down" } });

    // An answer again: ready, and the grace counts from it.
    delayMs = 0;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await probe("req_4")).checks).toEqual({ broker: "ok", checkout: "ok" });
  }, 20_000);

  it("never counts as slow a service that has not answered once", async () => {
    const client = await world(() => 2_500);
    expect(await readinessProbe(client, ["checkout"])("req_1")).toEqual({ ready: false, checks: { broker: "ok", checkout: "down" } });
  }, 10_000);
});
