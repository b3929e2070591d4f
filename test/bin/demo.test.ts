import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walkThrough } from "../../bin/demo/walk-through.ts";
import { startNpmStart, type NpmStart } from "../support/npm-start.ts";

/**
 * `npm run demo` against `npm start`, as a newcomer runs them: a fresh data directory, the
 * demo merchant `npm start` prints, and the walk-through through the typed client
 * generated from the OpenAPI document.
 */
describe("the walk-through against npm start", () => {
  let server: NpmStart;

  beforeAll(async () => {
    server = await startNpmStart();
  }, 90_000);
  afterAll(() => server?.stop());

  it("settles a one-off payment, cancels a subscription and completes a refund, printing each step", async () => {
    const lines: string[] = [];
    const result = await walkThrough(server.api, server.apiKey, (line) => lines.push(line));
    expect(result.paidCheckout.status).toBe("paid");
    expect(result.cancelledSubscription).toEqual({ message: expect.stringMatching(/^user \+1415555\d{4} is unsubscribed$/), subscription_status: "cancelled" });
    expect(result.completedRefund.status).toBe("completed");
    // The README promises a refund to approve in the dashboard after the demo, on a fresh data dir too.
    expect(result.pendingRefund).toMatchObject({ status: "pending" });
    const listed = await fetch(`${server.api}/api/merchants/refunds?status=pending`, { headers: { "api-key": server.apiKey } });
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((r) => r.id)).toContain(result.pendingRefund.id);
    for (const n of [" 1.", " 4.", " 8.", "10.", "11.", "13.", "14."]) expect(lines.some((l) => l.startsWith(n)), n).toBe(true);
  }, 90_000);
});
