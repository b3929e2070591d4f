import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { leftoverTestQueues, TEST_RUN_VARIABLE, testQueuePrefix } from "./amqp-test-url.ts";

/*
 * Two test runs share one broker (two clones' CI side by side). Each run's queue prefixes name
 * it, and the clean-up one run makes at its start deletes the idle queues of runs that are over,
 * never those of a run still going: a run has idle queues of its own while it works (a service
 * stopped and started again, a durable queue between two tests).
 */

/** The id of a process that has exited: a run that is over. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

describe("test queues on a shared broker", () => {
  it("names this run in every queue prefix: the process that set the run up, alive", () => {
    const run = process.env[TEST_RUN_VARIABLE];
    expect(run).toMatch(/^\d+$/);
    expect(() => process.kill(Number(run), 0)).not.toThrow();
    expect(testQueuePrefix()).toMatch(new RegExp(`^test-r${run}-[0-9a-f]{8}\\.$`));
  });

  it("takes the idle test queues of runs that are over (and of unnamed runs), never a live run's, a busy one or another application's", () => {
    const over = deadPid();
    const listing = [
      `test-r${process.pid}-0a1b2c3d.payments.rpc\t0\t0`,
      `test-r${over}-0a1b2c3d.payments.rpc\t0\t0`,
      `test-r${over}-0a1b2c3d.ledger.events\t1\t0`,
      `test-r${over}-0a1b2c3d.ledger.events.dead\t0\t3`,
      "test-9f8e7d6c.checkout.rpc\t0\t0",
      "payments.rpc\t0\t0",
      "",
    ].join("\n");
    expect(leftoverTestQueues(listing)).toEqual([`test-r${over}-0a1b2c3d.payments.rpc`, "test-9f8e7d6c.checkout.rpc"]);
  });
});
