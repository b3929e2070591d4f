import { reserveRequestsOp } from "@payrail/contracts";
import { buildApp } from "@payrail/gateway";
import type { Transport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant, infraVariants } from "../../../test/support/infra.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { until } from "../../../test/support/until.ts";
import { randomPhone } from "./support/bank-linking.ts";

const variants = await infraVariants();
const SERVICES = ["identity", "checkout", "payments", "refunds"];
const WINDOW_MS = 60_000;
/** Requests per minute per credential: blocks of 4 (docs/decisions/0049-shared-request-limits.md). */
const LIMIT = 40;
const BLOCK = 4;
const AUTH_FAILURES = 6;

/**
 * Waits until the current one-minute window has at least 20 s left, so that a test's requests
 * all fall in one window (shared windows start on the clock's minute).
 */
const windowWithRoom = () => until("a window with 20 s left", () => Date.now() % WINDOW_MS < WINDOW_MS - 20_000, 25_000, 100);

/**
 * Lets the event loop turn between two requests, as a client's next request arrives through I/O:
 * `inject` alone runs on promises only, so the embedded store's group commit (setImmediate)
 * would never get its turn and no reservation would land.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** What every gateway has reserved so far, in the shared counters of identity's store. */
async function reservedTotal(store: Store): Promise<number> {
  const docs = await store.collection<{ _id: string; count: number; expiresAt: string }>("request_budgets").find({ expiresAt: { $gt: new Date(0).toISOString() } });
  return docs.reduce((sum, doc) => sum + doc.count, 0);
}

/**
 * Counts, per gateway transport, the answered reservations of the failure limit (the one whose
 * limit is AUTH_FAILURES): the store shows a reservation before the gateway has its answer, and
 * until then the gateway counts against the whole limit (capOf).
 */
const failureReservationsAnswered = new Map<Transport, number>();
function countFailureReservations(transport: Transport): Transport {
  const call = transport.call.bind(transport) as (...args: unknown[]) => Promise<unknown>;
  transport.call = ((...args: unknown[]) => {
    const out = call(...args);
    const [op, payload] = args as [{ pattern: string }, { limit?: number }];
    if (op.pattern === reserveRequestsOp.pattern && payload.limit === AUTH_FAILURES) {
      out.then(() => failureReservationsAnswered.set(transport, (failureReservationsAnswered.get(transport) ?? 0) + 1), () => undefined);
    }
    return out;
  }) as Transport["call"];
  return transport;
}

/**
 * Issue 35: two gateways on one identity service and store, SHARED_LIMITS on. A client that
 * hits both is limited at one budget, within the bound decision 0049 states: at most one block
 * of credit (and what a gateway counted before its first reservation answered) over it per
 * gateway, at most a block and a half left unused on another gateway under it.
 */
describe.each(variants)("limits shared by two gateways over $name", (variant) => {
  let stack: Stack;
  let second: FastifyInstance;
  let secondTransport: Transport;
  let gateways: FastifyInstance[];

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, {
      rateLimitPerMinute: LIMIT,
      authFailuresPerMinute: AUTH_FAILURES,
      gateway: { sharedLimits: true },
      env: { SEND_CODE_PER_ADDRESS_PER_HOUR: "2" },
    });
    countFailureReservations(stack.transport);
    secondTransport = countFailureReservations(await variant.transport());
    second = await buildApp({
      transport: secondTransport,
      logger: silentLogger(),
      apiKeyCacheMs: 5_000,
      rateLimitPerMinute: LIMIT,
      authFailuresPerMinute: AUTH_FAILURES,
      services: SERVICES,
      sandbox: true,
      sharedLimits: true,
    });
    await second.ready();
    gateways = [stack.app, second];
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
    await variant.cleanup();
  });

  const list = (gateway: FastifyInstance, apiKey: string, remoteAddress = "10.3.0.1") =>
    gateway.inject({ url: "/api/merchants/checkout", headers: { "api-key": apiKey }, remoteAddress });

  describe.skipIf(!!variant.skipReason)("", () => {
    it("limits a client that alternates between them at the one budget, with coherent RateLimit-* headers", async () => {
      const { apiKey } = await stack.merchant("Alternating");
      await windowWithRoom();
      const answers: LightMyRequestResponse[] = [];
      for (let i = 0; i < 2 * LIMIT; i++) {
        answers.push(await list(gateways[i % 2]!, apiKey));
        await nextTurn();
      }
      const served = answers.filter((a) => a.statusCode === 200);
      // Unshared, each gateway would serve its own 40: 80 in all.
      expect(served.length).toBeGreaterThanOrEqual(LIMIT - BLOCK - BLOCK / 2);
      expect(served.length).toBeLessThanOrEqual(LIMIT + 2 * BLOCK);
      expect(answers.slice(-4).map((a) => a.statusCode)).toEqual([429, 429, 429, 429]);

      let servedSoFar = 0;
      for (const a of answers) {
        expect(a.headers["ratelimit-limit"]).toBe(String(LIMIT));
        const remaining = Number(a.headers["ratelimit-remaining"]);
        const reset = Number(a.headers["ratelimit-reset"]);
        expect(reset).toBeGreaterThanOrEqual(1);
        expect(reset).toBeLessThanOrEqual(60);
        if (a.statusCode === 200) {
          servedSoFar += 1;
          // What a gateway tells is the budget less what it knows the others reserved: off by at most their unused blocks.
          expect(remaining).toBeGreaterThanOrEqual(0);
          expect(Math.abs(remaining - (LIMIT - servedSoFar))).toBeLessThanOrEqual(2 * BLOCK);
        } else {
          expect(a.statusCode).toBe(429);
          expect(remaining).toBe(0);
          expect(a.json().error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
          expect(Number(a.headers["retry-after"])).toBe(reset);
        }
      }
    });

    it("charges a burst counted before the first reservation answered: the other gateway serves only the rest", async () => {
      const { apiKey } = await stack.merchant("Burst");
      await windowWithRoom();
      const store = await variant.store();
      const before = await reservedTotal(store);
      const burst = await Promise.all(Array.from({ length: 30 }, () => list(stack.app, apiKey)));
      expect(burst.every((a) => a.statusCode === 200)).toBe(true);
      await until("the burst charged to the shared counter", async () => (await reservedTotal(store)) - before >= 30);
      let atSecond = 0;
      for (let i = 0; i < LIMIT; i++) {
        if ((await list(second, apiKey)).statusCode === 200) atSecond += 1;
        await nextTurn();
      }
      // 10 left of 40, less what the first gateway holds unused (at most a block and a half).
      expect(atSecond).toBeGreaterThanOrEqual(LIMIT - 30 - BLOCK - BLOCK / 2);
      expect(atSecond).toBeLessThanOrEqual(LIMIT - 30);
    });

    it("blocks a failing credential after the shared number of 401s from both gateways together", async () => {
      const fail = async (gateway: FastifyInstance) => {
        const code = (await list(gateway, "sk_test_sharedfailure000", "10.3.0.9")).statusCode;
        await nextTurn();
        return code;
      };
      // All in one window: a minute's boundary mid-test opens a fresh one (a 401 after the 429s).
      await windowWithRoom();
      const answered = () => [failureReservationsAnswered.get(stack.transport) ?? 0, failureReservationsAnswered.get(secondTransport) ?? 0];
      const before = answered();
      const codes = [await fail(stack.app), await fail(second)];
      // Each gateway's first reservation (its failure and a block of 1) answered, in the gateway
      // itself: from here what a gateway counts before an answer is known (1), and the bound is
      // 6 + 2 × max(1, 1).
      await until("both gateways' first reservations answered", () => answered().every((n, i) => n > before[i]!));
      // A gateway whose reservation is on its way refuses past its block of credit and serves
      // again when the grant lands (on a loaded machine, a few requests later): so the client
      // goes on until it has seen the budget's 401s and then two refusals on each gateway in a
      // row, and the bound is checked on every 401 it got, up to three times the unshared count.
      const failures = () => codes.filter((c) => c === 401).length;
      const blockedOnBoth = () => failures() >= AUTH_FAILURES && codes.slice(-4).every((c) => c === 429);
      for (let i = 2; i < 6 * AUTH_FAILURES && !blockedOnBoth(); i++) codes.push(await fail(gateways[i % 2]!));
      // Unshared: 6 at each gateway, 12.
      expect(failures()).toBeGreaterThanOrEqual(AUTH_FAILURES);
      expect(failures()).toBeLessThanOrEqual(AUTH_FAILURES + 2);
      expect(codes.slice(-4)).toEqual([429, 429, 429, 429]);
    });

    it("holds Send Code's budget per address across both gateways (kept in the store by identity)", async () => {
      const sendCode = (gateway: FastifyInstance) =>
        gateway.inject({ method: "POST", url: "/api/verify_user/send_code", payload: { phone: randomPhone() }, remoteAddress: "203.0.113.60" });
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await sendCode(gateways[i % 2]!)).statusCode);
      expect(codes).toEqual([200, 200, 429, 429]);
    });
  });
});

/**
 * Fail-open (decision 0049): when the shared counter cannot be reached, a gateway counts alone,
 * as an unshared limit does, logs it and counts it in /metrics. Here no identity service answers
 * on the gateway's bus at all.
 */
describe("shared limits without a reachable counter", () => {
  const variant = embeddedVariant();
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp({ transport: await variant.transport(), logger: silentLogger(), apiKeyCacheMs: 0, rateLimitPerMinute: 5, services: [], sandbox: true, sharedLimits: true });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await variant.cleanup();
  });

  const unshared = async () => {
    const line = (await app.inject({ url: "/metrics", remoteAddress: "10.4.0.99" })).body.split("\n").find((l) => l.startsWith("payrail_rate_limit_unshared_total "));
    return Number(line?.split(" ")[1] ?? 0);
  };

  it("serves the whole limit from this gateway's own count, then 429, and counts the failed reservation", async () => {
    await windowWithRoom();
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await app.inject({ url: "/healthz", remoteAddress: "10.4.0.1" })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    await until("the failed reservation counted", async () => (await unshared()) >= 1);
  });
});
