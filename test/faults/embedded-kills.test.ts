import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CREATE_CHECKOUT_EXAMPLE } from "@payrail/gateway";
import { startReceiver, type Answer, type Received, type Receiver } from "../support/webhook-receiver.ts";
import { until } from "../support/until.ts";

/** Payments settled in each burst; one burst per kill. */
const PER_BURST = 8;
/** Round 1's kill point: after this many settlements of the burst were answered. */
const ANSWERED_BEFORE_KILL = 3;
const CONVERGENCE_MS = 60_000;
/** The webhooks service's delivery lease with the default 10 s timeout: a delivery cut by a kill waits this long. */
const DELIVERY_LEASE_MS = 40_000;

interface Running {
  child: ChildProcess;
  baseUrl: string;
  apiKey?: string;
}

interface Payment {
  checkoutId: string;
  transactionUuid: string;
  settled: boolean;
}

/**
 * Issue 19: `npm start` (every service in one process, in-process bus, embedded store) SIGKILLed
 * three times during bursts of settlements, each time at another moment, and restarted on the
 * same data directory. The merchant settles again what got no answer, as it would. At the end
 * every payment is paid, every event is in the events API and was delivered to the merchant's
 * endpoint, and `payrail check` exits 0.
 */
describe("embedded: SIGKILL during bursts of settlements, three times, restart", () => {
  let dir: string;
  let running: Running | undefined;
  let receiver: Receiver;
  afterAll(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) running.child.kill("SIGKILL");
    await receiver?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  function env(): NodeJS.ProcessEnv {
    const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(dir, "data"), PORT: "0", LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "100000" };
    for (const key of ["AMQP_URL", "MONGODB_URL", "SECRETS_KEY", "SERVICES", "ADMIN_TOKEN", "NODE_ENV"]) delete e[key];
    return e;
  }

  /** `npm start`, resolved once it serves (with the demo merchant's key on the first start). */
  async function start(firstStart = false): Promise<Running> {
    const child = spawn(process.execPath, ["bin/start.mjs"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stderr!.on("data", (chunk: Buffer) => (out += String(chunk)));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${out}`)), 120_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        out += String(chunk);
        const api = /API: +(http:\/\/\S+)/.exec(out);
        // The demo merchant's key is printed after the API's address, on the first start only.
        if (api && out.includes("Docs:") && (!firstStart || /api-key: (sk_test_\w+)/.test(out))) {
          clearTimeout(timer);
          const key = /api-key: (sk_test_\w+)/.exec(out)?.[1];
          resolve({ child, baseUrl: api[1]!, ...(key ? { apiKey: key } : {}) });
        }
      });
      child.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
    });
  }

  async function kill(r: Running): Promise<void> {
    const exited = once(r.child, "exit");
    r.child.kill("SIGKILL");
    await exited;
  }

  async function http(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: unknown }> {
    try {
      const res = await fetch(`${running!.baseUrl}${path}`, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(20_000),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    } catch (err) {
      return { status: 0, body: String(err) };
    }
  }

  let apiKey = "";
  const merchant = (path: string, body?: unknown) => http(path, { body, headers: { "api-key": apiKey } });
  /** The body of a 200, typed as the caller reads it; any other answer fails the test. */
  const ok = async <T = unknown>(what: string, answer: Promise<{ status: number; body: unknown }>): Promise<T> => {
    const a = await answer;
    if (a.status !== 200) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body as T;
  };

  let phones = 0;
  /** A checkout, a new consumer who links a sandbox bank account, and the merchant's transfer: pending. */
  async function pendingPayment(): Promise<Payment> {
    const n = phones++;
    const created = await ok<{ id: string }>("create", merchant("/api/merchants/checkout", { ...CREATE_CHECKOUT_EXAMPLE, merchant_checkout_id: `order-${n}` }));
    const link = await ok<{ link_token: string }>("link token", merchant(`/api/merchants/checkout/${created.id}/generate_link_token`));
    // The fictional 555-01xx range, one consumer each.
    const phone = `+1415555${String(100 + n).padStart(4, "0")}`;
    await ok("send code", http("/api/verify_user/send_code", { body: { phone } }));
    const code = await ok<{ code: string }>("read code", merchant(`/api/sandbox/verification_codes/${encodeURIComponent(phone)}`));
    const verified = await ok<{ data: { auth_token: string } }>("verify", http("/api/verify_user/verify_code", { body: { phone, verification_code: code.code } }));
    const consumer = { authorization: `Token ${verified.data.auth_token}`, "link-token": link.link_token };
    const bank = await ok<{ link_token: string }>("bank link", http(`/api/consumers/checkout/${created.id}/create_link_token`, { method: "POST", headers: consumer }));
    const picked = await ok<{ public_token: string; accounts: { account_id: string }[] }>("public token", merchant("/api/sandbox/public_token", { link_token: bank.link_token }));
    await ok(
      "exchange",
      http(`/api/consumers/checkout/${created.id}/exchange_public_token`, {
        body: { public_token: picked.public_token, bankdata_account_id: picked.accounts[0]!.account_id },
        headers: consumer,
      }),
    );
    const token = await ok<{ transaction_uuid: string }>("get processor token", merchant("/api/merchants/payment_preprocess/get_processor_token", { checkout_id: created.id }));
    return { checkoutId: created.id, transactionUuid: token.transaction_uuid, settled: false };
  }

  /** The bank settles one transfer (sandbox); true when the answer came (a kill may cut it). */
  async function settle(p: Payment): Promise<boolean> {
    const a = await merchant(`/api/sandbox/transfers/${p.transactionUuid}/simulate`, { status: "completed" });
    if (a.status === 200) p.settled = true;
    return p.settled;
  }

  /** Settles the burst 4 at a time; `onAnswer` runs after each answered settlement. */
  async function burst(payments: Payment[], onAnswer: (answered: number) => void = () => undefined): Promise<void> {
    const queue = [...payments];
    let answered = 0;
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        for (let p = queue.shift(); p; p = queue.shift()) if (await settle(p)) onAnswer(++answered);
      }),
    );
  }

  /** After a restart the merchant settles again every transfer whose settlement got no answer. */
  async function settleUnanswered(payments: Payment[]): Promise<void> {
    for (const p of payments.filter((x) => !x.settled)) await ok(`settle ${p.transactionUuid} again`, merchant(`/api/sandbox/transfers/${p.transactionUuid}/simulate`, { status: "completed" }));
    for (const p of payments) p.settled = true;
  }

  /** Transactions whose transaction.completed the endpoint took (answered 200), not merely received. */
  const delivered = new Set<string>();
  const answered = (request: Received): Answer => {
    const id = transactionOf(request.body);
    if (id) delivered.add(id);
    return 200;
  };

  it("pays every settled checkout, keeps every event and payrail check exits 0", async () => {
    dir = await mkdtemp(join(tmpdir(), "payrail-kills-"));
    receiver = await startReceiver();
    receiver.answer = answered;
    running = await start(true);
    apiKey = running.apiKey!;
    await ok("webhook endpoint", merchant("/api/merchants/webhook_endpoints", { url: receiver.url, enabled_events: ["transaction.completed"] }));
    const all: Payment[] = [];
    const kills: string[] = [];

    // 1. Mid-burst: killed once ANSWERED_BEFORE_KILL settlements were answered, the others in flight or not sent.
    const first = await Promise.all(Array.from({ length: PER_BURST }, () => pendingPayment()));
    all.push(...first);
    const r1 = running;
    let killing: Promise<void> | undefined;
    await burst(first, (answered) => {
      if (answered === ANSWERED_BEFORE_KILL) killing ??= kill(r1);
    });
    await killing;
    kills.push(`mid-burst: ${first.filter((p) => p.settled).length} of ${PER_BURST} settlements answered`);
    running = await start();
    await settleUnanswered(first);

    // 2. Right after the simulations: every settlement answered, its events not yet all handled.
    const second = await Promise.all(Array.from({ length: PER_BURST }, () => pendingPayment()));
    all.push(...second);
    await burst(second);
    await kill(running);
    kills.push("right after every settlement of the burst was answered");
    running = await start();

    // 3. During the webhooks fan-out: killed while the endpoint holds the first delivery of this burst unanswered.
    const third = await Promise.all(Array.from({ length: PER_BURST }, () => pendingPayment()));
    all.push(...third);
    const ids = new Set(third.map((p) => p.transactionUuid));
    const r3 = running;
    let fanOutKill: Promise<void> | undefined;
    receiver.answer = (request) => {
      if (!ids.has(transactionOf(request.body) ?? "")) return answered(request);
      fanOutKill ??= kill(r3);
      return "hang";
    };
    await burst(third);
    await until("the first delivery of the third burst", () => fanOutKill !== undefined, 30_000);
    await fanOutKill;
    receiver.answer = answered;
    kills.push(`during the webhooks fan-out, ${third.filter((p) => p.settled).length} of ${PER_BURST} settlements answered`);
    running = await start();
    await settleUnanswered([...second, ...third]);

    // Every checkout paid; every transaction's creation and completion in the events API and delivered.
    const started = Date.now();
    await until("every checkout paid", async () => {
      for (const p of all) {
        const c = await merchant(`/api/merchants/checkout/${p.checkoutId}`);
        if (c.status !== 200 || (c.body as { status: string }).status !== "paid") return false;
      }
      return true;
    }, CONVERGENCE_MS);
    const events = async (type: string) => {
      const seen = new Set<string>();
      let after = "";
      for (;;) {
        const page = await ok<EventPage>("events", merchant(`/api/merchants/events?type=${type}&limit=100${after ? `&starting_after=${after}` : ""}`));
        for (const e of page.data) seen.add(e.data.object.transaction_uuid);
        if (!page.has_more) return seen;
        after = page.data.at(-1)!.id;
      }
    };
    await until("every transaction.created and transaction.completed in the events API", async () => {
      const [created, completed] = await Promise.all([events("transaction.created"), events("transaction.completed")]);
      return all.every((p) => created.has(p.transactionUuid) && completed.has(p.transactionUuid));
    }, CONVERGENCE_MS);
    const agreedMs = Date.now() - started;
    // A delivery the kill cut is sent again once its lease ends (10 s, renewed while an attempt runs).
    await until("every transaction.completed delivered to the endpoint", () => all.every((p) => delivered.has(p.transactionUuid)), DELIVERY_LEASE_MS + CONVERGENCE_MS);
    console.log(`kills: ${kills.join("; ")}; checkouts and events API agreed ${agreedMs} ms after the last re-settlement, every delivery made ${Date.now() - started} ms after it`);

    // Stopped as an operator would, then checked.
    const exited = once(running.child, "exit");
    running.child.kill("SIGTERM");
    await exited;
    const cli = await payrailCheck(env());
    expect(cli.stdout).toContain("no divergence");
    expect(cli.code).toBe(0);
  }, 300_000);
});

/** The events API's page, as far as these tests read it. */
interface EventPage {
  data: { id: string; data: { object: { transaction_uuid: string } } }[];
  has_more: boolean;
}

/** The transaction a webhook delivery is about. */
function transactionOf(body: string): string | undefined {
  return (JSON.parse(body) as { data?: { object?: { transaction_uuid?: string } } }).data?.object?.transaction_uuid;
}

function payrailCheck(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "bin/payrail.ts", "check", "--grace", "0"], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: stdout + stderr });
    });
  });
}
