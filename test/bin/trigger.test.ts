import { execFile } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNpmStart, type NpmStart } from "../support/npm-start.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `payrail <args>` in a child process, as a merchant developer runs it beside `npm start`. */
function payrail(...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
  for (const key of ["AMQP_URL", "MONGODB_URL", "PAYRAIL_API_KEY", "PAYRAIL_URL", "PAYRAIL_API"]) delete env[key];
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "bin/payrail.ts", ...args], { env, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Issue 24 item 8: `payrail trigger <event>` against a running `npm start`: the event happens
 * through the sandbox flow, so the events API shows it about real objects that link up.
 */
describe("payrail trigger", () => {
  let server: NpmStart;
  let api: string;
  let apiKey: string;
  const get = async (path: string) => {
    const reply = await fetch(`${api}${path}`, { headers: { "api-key": apiKey } });
    expect(reply.status, path).toBe(200);
    return (await reply.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    server = await startNpmStart();
    ({ api, apiKey } = server);
  }, 90_000);
  afterAll(() => server?.stop());

  it("lists the events it can trigger, and refuses another before calling anything", async () => {
    const [help, unknown] = await Promise.all([payrail("trigger", "--help"), payrail("trigger", "checkout.exploded", "--api", api, "--api-key", apiKey)]);
    expect(help.code).toBe(0);
    for (const type of ["checkout.payment_method_saved", "transaction.completed", "transaction.returned", "subscription.past_due", "refund.completed"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${type.replace(".", "\\.")} +\\S`, "m"));
    }
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining("not one of the events below") });
  }, 120_000);

  it("makes checkout.payment_method_saved happen on a real checkout the events API then shows", async () => {
    const run = await payrail("trigger", "checkout.payment_method_saved", "--api", api, "--api-key", apiKey);
    expect(run.code, run.stderr).toBe(0);
    const [, eventId, checkoutId] = /Triggered checkout\.payment_method_saved (evt_[0-9a-f]{32}) \(object (chk_[0-9a-f]{32})/.exec(run.stdout) ?? [];
    expect(eventId, run.stdout).toBeDefined();

    const event = await get(`/api/merchants/events/${eventId}`);
    expect(event).toMatchObject({ type: "checkout.payment_method_saved", livemode: false, data: { object: { id: checkoutId, status: "payment_method_saved" } } });
    const checkout = await get(`/api/merchants/checkout/${checkoutId}`);
    expect(checkout).toMatchObject({ id: checkoutId, status: "payment_method_saved" });
    const listed = await get(`/api/merchants/events?type=checkout.*&limit=100`);
    const aboutIt = (listed["data"] as { type: string; data: { object: { id: string } } }[]).filter((e) => e.data.object.id === checkoutId).map((e) => e.type);
    expect(aboutIt.sort()).toEqual(["checkout.created", "checkout.payment_method_saved"]);
  }, 120_000);

  it("makes refund.completed happen on a settled payment: the refund, its transaction and its checkout link up", async () => {
    const run = await payrail("trigger", "refund.completed", "--api", api, "--api-key", apiKey);
    expect(run.code, run.stderr).toBe(0);
    const [, eventId, refundId, checkoutId] = /Triggered refund\.completed (evt_[0-9a-f]{32}) \(object (rfd_[0-9a-f]{32}), checkout (chk_[0-9a-f]{32})\)/.exec(run.stdout) ?? [];
    expect(eventId, run.stdout).toBeDefined();

    const event = (await get(`/api/merchants/events/${eventId}`)) as { data: { object: { id: string; status: string; transaction_uuid: string; amount: number } } };
    // Linked by the checkout's one id (docs/units-and-ids.md): the refund and its transaction both name it.
    expect(event.data.object).toMatchObject({ id: refundId, status: "completed", checkout: checkoutId });
    const completed = await get(`/api/merchants/events?type=transaction.completed&limit=100`);
    const transaction = (completed["data"] as { data: { object: { transaction_uuid: string; amount: number; checkout: string } } }[]).find(
      (e) => e.data.object.transaction_uuid === event.data.object.transaction_uuid,
    );
    expect(transaction?.data.object).toMatchObject({ amount: event.data.object.amount, checkout: checkoutId });
    expect(await get(`/api/merchants/refunds/${refundId}`)).toMatchObject({ id: refundId, status: "completed" });
    expect(await get(`/api/merchants/checkout/${checkoutId}`)).toMatchObject({ id: checkoutId, status: "refunded" });
  }, 120_000);

  it("says which URL it could not reach when no Payrail runs there", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const run = await payrail("trigger", "checkout.created", "--api", nobody, "--api-key", apiKey);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining(`cannot reach Payrail at ${nobody}: connection refused: nothing is listening there (ECONNREFUSED)`) });
  }, 60_000);
});
