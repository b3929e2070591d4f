import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { CREATE_CHECKOUT_EXAMPLE } from "@payrail/gateway";
import { merchantRetries } from "./merchant-retries.ts";

/** One HTTP request of the load, as the client saw it. */
export interface Sent {
  what: string;
  sentAt: number;
  answeredAt: number;
  /** The HTTP status, or 0 when no answer came (connection refused or reset). */
  status: number;
  error?: string;
  /** Tries it took (1 unless the merchant's retry policy tried again). */
  tries: number;
}

/** What the load does per second: creates and gets at `simplePerS`, and `flowsPerS` full payment flows (9 requests each). */
export interface LoadShape {
  simplePerS: number;
  flowsPerS: number;
}

/** Requests of one full flow: create, link token, send code, sandbox code, verify, bank link token, public token, exchange, transfer. */
const FLOW_REQUESTS = 9;

/**
 * The mix at `requestsPerS` requests a second in all: one flow for every 16 creates and gets,
 * so that a little over a third of the requests belong to full flows (6.25 a second is 4 creates
 * and gets and a flow every 4 s; 100 is 64 and 4 flows).
 */
export function loadShape(requestsPerS: number): LoadShape {
  const flowsPerS = requestsPerS / (16 + FLOW_REQUESTS);
  return { simplePerS: 16 * flowsPerS, flowsPerS };
}

/**
 * A steady open-loop load through one URL (the load balancer): creates (with an Idempotency-Key)
 * and gets of checkouts, and full payment flows (the walk-through: create, link token, send and
 * verify a code, link a sandbox bank account, transfer), each flow's steps one after another.
 * Sends on schedule whatever the answers take, so a stall shows up as slow or failed requests,
 * not as a slower load. `retryUntil` (the kill phase) makes a failed request be sent again as a
 * merchant would (same body, same Idempotency-Key) until it succeeds or that moment passes.
 */
export class SteadyLoad {
  readonly sent: Sent[] = [];
  readonly created: string[] = [];
  /** Checkouts whose transfer was asked for and answered 200, with the transaction id named. */
  readonly paid = new Map<string, string>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<unknown>>();
  private phone = 2_000_000 + Math.floor(Math.random() * 7_000_000);
  /** When each request not answered yet was first sent. */
  private readonly open = new Set<{ sentAt: number }>();
  retryUntil: number | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly shape: LoadShape,
  ) {}

  start(): void {
    const started = Date.now();
    let simple = 0;
    let flows = 0;
    this.timer = setInterval(() => {
      const s = (Date.now() - started) / 1000;
      for (; simple < Math.floor(s * this.shape.simplePerS); simple++) this.track(simple % 2 === 0 || this.created.length === 0 ? this.create() : this.get());
      for (; flows < Math.floor(s * this.shape.flowsPerS); flows++) this.track(this.flow());
    }, 20);
  }

  /** Stops sending new work and waits for what is in flight (flows to their end). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    this.agent.destroy();
  }

  /** Requests first sent at or before `at` and not answered yet (their retries included). */
  openSince(at: number): number {
    return [...this.open].filter((o) => o.sentAt <= at).length;
  }

  /** Answered requests first sent after `at`. */
  answeredAfter(at: number): number {
    return this.sent.filter((s) => s.sentAt > at).length;
  }

  failures(): Sent[] {
    return this.sent.filter((s) => s.status < 200 || s.status > 299);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  private merchant(): Record<string, string> {
    return { "api-key": this.apiKey };
  }

  private async create(): Promise<string> {
    const body = { ...CREATE_CHECKOUT_EXAMPLE, merchant_checkout_id: `rolling-${randomUUID()}` };
    const { id } = await this.call("create", "POST", "/api/merchants/checkout", { ...this.merchant(), "idempotency-key": randomUUID() }, body);
    this.created.push(id as string);
    return id as string;
  }

  private async get(): Promise<void> {
    const id = this.created[Math.floor(Math.random() * this.created.length)]!;
    await this.call("get", "GET", `/api/merchants/checkout/${id}`, this.merchant());
  }

  private async flow(): Promise<void> {
    const id = await this.create();
    const { link_token: linkToken } = await this.call("link token", "GET", `/api/merchants/checkout/${id}/generate_link_token`, this.merchant());
    const phone = `+1415${this.phone++}`;
    await this.call("send code", "POST", "/api/verify_user/send_code", {}, { phone });
    const { code } = await this.call("sandbox code", "GET", `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, this.merchant());
    const verified = await this.call("verify code", "POST", "/api/verify_user/verify_code", {}, { phone, verification_code: code });
    const consumer = { authorization: `Token ${verified.data.auth_token}`, "link-token": linkToken };
    const bank = await this.call("bank link token", "POST", `/api/consumers/checkout/${id}/create_link_token/`, consumer);
    const picked = await this.call("public token", "POST", "/api/sandbox/public_token", this.merchant(), { link_token: bank.link_token });
    await this.call("exchange", "POST", `/api/consumers/checkout/${id}/exchange_public_token/`, consumer, { public_token: picked.public_token, bankdata_account_id: picked.accounts[0].account_id });
    const token = await this.call("transfer", "POST", "/api/merchants/payment_preprocess/get_processor_token", this.merchant(), { checkout_id: id });
    this.paid.set(id, token.transaction_uuid as string);
  }

  /**
   * One request, recorded; sent again while `retryUntil` allows after no answer, a 5xx, a 409
   * transfer_in_progress or a 409 idempotency_key_in_use (the first try's claim, held by a killed
   * process until its lease runs out). Every POST carries an Idempotency-Key, the same on each
   * try, as a careful client's does: a try whose answer was lost is replayed, not run again.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's replies, read field by field
  private async call(what: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
    const sentAt = Date.now();
    const open = { sentAt };
    this.open.add(open);
    const keyed = method === "POST" && !("idempotency-key" in headers) ? { ...headers, "idempotency-key": randomUUID() } : headers;
    try {
      return await this.tries(what, method, path, keyed, body, sentAt);
    } finally {
      this.open.delete(open);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as call()
  private async tries(what: string, method: string, path: string, headers: Record<string, string>, body: unknown, sentAt: number): Promise<any> {
    for (let tries = 1; ; tries++) {
      const answer = await this.once(method, path, headers, body);
      const retryable = merchantRetries(answer.status, answer.text);
      if (answer.status === 200 || !retryable || this.retryUntil === undefined || Date.now() > this.retryUntil) {
        const record: Sent = { what, sentAt, answeredAt: Date.now(), status: answer.status, tries };
        if (answer.status !== 200) record.error = answer.text.slice(0, 200);
        this.sent.push(record);
        if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
        return JSON.parse(answer.text);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private once(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; text: string }> {
    const { hostname, port } = new URL(this.baseUrl);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve) => {
      const req = request(
        {
          agent: this.agent,
          hostname,
          port,
          method,
          path,
          headers: payload === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", (err) => resolve({ status: 0, text: err.message }));
        },
      );
      req.setTimeout(60_000, () => req.destroy(new Error("timed out")));
      req.on("error", (err) => resolve({ status: 0, text: err.message }));
      req.end(payload);
    });
  }
}
