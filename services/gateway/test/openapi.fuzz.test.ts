import { randomBytes } from "node:crypto";
import { ERROR_CODES, ERROR_TYPES } from "@payrail/contracts";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN } from "../../../test/support/stack.ts";
import { checkoutWithLinkToken } from "./support/bank-linking.ts";
import { payment, requested } from "./support/refund-flow.ts";
import { arbitraryOf, headerText, junk, type JsonSchema } from "./support/schema-arbitrary.ts";
import { withWebhooksStack } from "./support/webhooks-stack.ts";

/** Fixed, so CI runs the same requests every time; FUZZ_SEED and FUZZ_RUNS explore further. */
const SEED = Number(process.env.FUZZ_SEED ?? 3_232_026);
/** Requests per operation (about 60 operations), and per amount field. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const AMOUNT_RUNS = 150;

interface Parameter {
  in: "path" | "query" | "header";
  name: string;
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: { "application/json"?: { schema?: JsonSchema; example?: unknown } } };
}
interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** The answer every request must get: below 500, and an error in the API's one error shape. */
function expectWellAnswered(reply: { statusCode: number; body: string }, request: unknown): void {
  const what = JSON.stringify(request).slice(0, 600);
  expect(reply.statusCode, what).toBeLessThan(500);
  if (reply.statusCode < 400) return;
  const body = JSON.parse(reply.body) as { error: Record<string, unknown> };
  expect(Object.keys(body), what).toEqual(["error"]);
  const { type, code, message, request_id } = body.error;
  expect({ type, code: typeof code, message: typeof message, request_id: typeof request_id }, what).toEqual({
    type: ERROR_TYPES[reply.statusCode as keyof typeof ERROR_TYPES],
    code: "string",
    message: "string",
    request_id: "string",
  });
  expect(ERROR_CODES[code as keyof typeof ERROR_CODES], `${what}: ${String(code)}`).toBe(reply.statusCode);
}

/** Text put into a URL as it is, not encoded: what a careless or hostile client sends. */
class RawUrlPart {
  constructor(readonly text: string) {}
}
const RAW_URL_PARTS = ["%", "%zz", "%ED%A0%80", "%C0%AE", "..", ".", "%2e%2e", "a/b", "a%2Fb", "%00", "+", "a b", "é", "?", "#x", "&x=1", ";x"];

/** A parameter's value as it goes into the URL: percent-encoded (lone surrogates as U+FFFD), unless raw. */
function encoded(value: unknown): string {
  if (value instanceof RawUrlPart) return value.text;
  return encodeURIComponent((typeof value === "object" ? JSON.stringify(value) : String(value)).replace(/\p{Cs}/gu, "\ufffd"));
}

const AMOUNT_PATTERN = /^(0|[1-9]\d*)(\.\d{1,2})?$/;
const MAX_AMOUNT = 99_999_999.99;

/** An amount as raw JSON text (JSON.stringify would write -0 as 0): forms the rule takes, and forms it refuses. */
const amountText = fc.oneof(
  fc.stringMatching(AMOUNT_PATTERN).map((s) => JSON.stringify(s)),
  fc.integer({ min: 0, max: 9_999_999_999 }).map((cents) => String(cents / 100)),
  fc.integer({ min: 0, max: 9_999_999_999 }).map((cents) => JSON.stringify((cents / 100).toFixed(2))),
  fc
    .tuple(fc.constantFrom(" ", "0", "00", "+", "-", "\t", "\u00a0", ""), fc.stringMatching(AMOUNT_PATTERN), fc.constantFrom("", " ", ".", "0", "e1", "\n", "."))
    .map(([before, digits, after]) => JSON.stringify(before + digits + after)),
  fc.constantFrom("-0.0", "-0", "-1", "-0.01", "1e21", "1e-7", "5.123", "0.001", "1E2", "0.0", "5.10", "100000000", "99999999.99", "99999999.999"),
  fc.constantFrom('"-0"', '"-0.0"', '" 5 "', '"00005.00"', '"5."', '".5"', '"1e2"', '"0x10"', '"\u0661"', '"Infinity"', "null", "true", "[]", '{"amount":5}'),
);

/** The rule, written out again here so the test does not take the server's word for it. */
function amountAccepted(raw: string): boolean {
  const value: unknown = JSON.parse(raw);
  if (typeof value === "string") return AMOUNT_PATTERN.test(value) && Number(value) <= MAX_AMOUNT;
  if (typeof value !== "number") return false;
  return Number.isFinite(value) && value >= 0 && !Object.is(value, -0) && /^\d+(\.\d{1,2})?$/.test(String(value)) && value <= MAX_AMOUNT;
}

/**
 * Every operation of the gateway's own `/openapi.json`, driven with requests generated from its
 * schemas and with junk, as a merchant, a consumer, the admin, or nobody: whatever arrives, the
 * answer is below 500 and every error is in the API's error shape; every amount form is taken
 * or refused by the rule (docs/decisions/0006-strict-amounts.md).
 */
describe("every operation of /openapi.json under generated and junk input", () => {
  const variant = embeddedVariant();
  // Every service the document's operations reach: the notices and the books' routes too.
  const world = withWebhooksStack(variant, {}, ["notices", "ledger"]);
  const operations: { key: string; method: string; path: string; op: Operation }[] = [];
  let schemas: Record<string, JsonSchema> = {};
  let credentials: Record<string, Record<string, string>> = {};
  /** Real values by parameter or field name, so requests also reach past "not found". */
  const real: Record<string, string[]> = {};
  let refundUuid = "";
  let consumerAuth = "";

  beforeAll(async () => {
    const { stack } = world;
    const doc = (await stack.app.inject({ url: "/openapi.json" })).json();
    schemas = doc.components.schemas;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) operations.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op });
    }
    // Signing out ends the consumer's token, deletes end what they delete: last.
    const last = (o: { key: string; method: string }) => (o.key.endsWith("/logout") ? 2 : o.method === "DELETE" ? 1 : 0);
    operations.sort((a, b) => last(a) - last(b));

    const merchant = await stack.merchant("Fuzz");
    const paid = await payment(stack, merchant.apiKey, "completed");
    const open = await checkoutWithLinkToken(stack, merchant.apiKey);
    const refund = await requested(stack, paid);
    const headers = { "api-key": merchant.apiKey };
    const endpoint = await stack.app.inject({ method: "POST", url: "/api/merchants/webhook_endpoints", payload: { url: world.receiver.url, enabled_events: ["*"] }, headers });
    const event = await stack.app.inject({ method: "POST", url: "/api/sandbox/events", payload: { type: "refund.approved" }, headers });
    consumerAuth = `Token ${paid.consumer.token}`;
    credentials = {
      apiKey: { "api-key": merchant.apiKey },
      authToken: { authorization: consumerAuth },
      linkToken: { "link-token": open.linkToken },
      adminToken: { "x-admin-token": ADMIN_TOKEN },
    };
    refundUuid = paid.uuid;
    Object.assign(real, {
      checkout_id: [open.id, paid.checkoutId],
      transaction_uuid: [paid.uuid],
      subscription_transaction_uuid: [paid.uuid],
      id: [refund.id, endpoint.json().id, event.json().id, merchant.id],
      phone: [paid.consumer.phone],
    });
  });

  const requestFor = ({ method, path, op }: (typeof operations)[number]): fc.Arbitrary<Request> => {
    const params = op.parameters ?? [];
    const valueOf = (p: Parameter) => {
      // The documented example: the parameter's, or an optional query parameter's schema's.
      const known = [...(real[p.name] ?? []), ...(p.example === undefined ? [] : [p.example]), ...(p.schema?.examples ?? [])];
      return fc.oneof(
        { weight: known.length ? 3 : 0, arbitrary: known.length ? fc.constantFrom(...known) : junk },
        { weight: 2, arbitrary: arbitraryOf(p.schema, schemas) },
        { weight: 1, arbitrary: junk },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_PARTS).map((raw) => new RawUrlPart(raw)) },
      );
    };
    const pathValues = fc.tuple(...params.filter((p) => p.in === "path").map((p) => valueOf(p).map((v) => [p.name, v] as const)));
    const queryValues = fc.tuple(...params.filter((p) => p.in === "query").map((p) => fc.option(valueOf(p).map((v) => [p.name, v] as const), { nil: undefined })));
    const media = op.requestBody?.content["application/json"];
    // The JSON text sent, if any: from the schema, the documented example changed in one place, junk, or not JSON at all.
    const body: fc.Arbitrary<string | undefined> = media
      ? fc.oneof(
          { weight: 6, arbitrary: withRealFields(arbitraryOf(media.schema, schemas)).map((v) => JSON.stringify(v)) },
          { weight: 4, arbitrary: (media.example === undefined ? junk : mutated(media.example)).map((v) => JSON.stringify(v) ?? "") },
          { weight: 2, arbitrary: junk.map((v) => JSON.stringify(v) ?? "") },
          { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 40 }), fc.constant("")) },
        )
      : fc.option(fc.constantFrom("", "{}", "null", "[]", '{"a":'), { nil: undefined, freq: 4 });
    const requirements = (op.security ?? []).map((r) => Object.keys(r));
    const credential = requirements.length
      ? fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...requirements).map((names) => Object.assign({}, ...names.map((n) => credentials[n]))) },
          { weight: 1, arbitrary: fc.constant({}) },
          { weight: 1, arbitrary: fc.constantFrom(...requirements).chain((names) => fc.tuple(...names.map(() => headerText)).map((values) => Object.fromEntries(names.map((n, i) => [Object.keys(credentials[n]!)[0]!, values[i]!])))) },
        )
      : fc.constant({});
    return fc.tuple(pathValues, queryValues, body, credential).map(([pathPairs, queryPairs, payload, headers]) => {
      let url = path;
      for (const [name, value] of pathPairs) url = url.replace(`{${name}}`, encoded(value));
      const query = queryPairs.flatMap((pair) => (pair ? [`${encodeURIComponent(pair[0])}=${encoded(pair[1])}`] : []));
      if (query.length) url += `?${query.join("&")}`;
      return {
        method,
        url,
        headers: { ...(payload === undefined ? {} : { "content-type": "application/json" }), ...headers },
        ...(payload === undefined ? {} : { payload }),
      };
    });
  };

  /** A generated body whose fields, where a real value of that name exists, sometimes take it. */
  const withRealFields = (bodies: fc.Arbitrary<unknown>) =>
    fc.tuple(bodies, fc.boolean()).map(([body, fill]) => {
      if (!fill || typeof body !== "object" || body === null || Array.isArray(body)) return body;
      const filled = { ...(body as Record<string, unknown>) };
      for (const name of Object.keys(filled)) if (real[name]) filled[name] = real[name][0];
      return filled;
    });

  /** The documented example with one field (at any depth) replaced by junk or dropped. */
  const mutated = (example: unknown) => {
    const leaves = pathsOf(example);
    if (leaves.length === 0) return fc.constant(example);
    return fc.tuple(fc.constantFrom(...leaves), fc.option(junk, { nil: undefined })).map(([at, value]) => {
      const copy = structuredClone(example) as Record<string, unknown>;
      let target: Record<string, unknown> = copy;
      for (const key of at.slice(0, -1)) target = target[key] as Record<string, unknown>;
      const leaf = at.at(-1)!;
      if (value === undefined) delete target[leaf];
      else target[leaf] = value;
      return copy;
    });
  };

  it("finds the operations, with a merchant, a consumer and the admin to call them as", () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(Object.keys(credentials)).toEqual(["apiKey", "authToken", "linkToken", "adminToken"]);
  });

  it.each(["total", "subtotal", "tax", "shipping", "discount_total"])("takes or refuses each form of amounts.%s by the rule, and echoes a taken one as sent", async (field) => {
    const { stack } = world;
    const createCheckout = operations.find((o) => o.op.operationId === "createCheckout")!;
    const example = createCheckout.op.requestBody!.content["application/json"]!.example as Record<string, unknown>;
    await fc.assert(
      fc.asyncProperty(amountText, async (raw) => {
        const body = { ...example, merchant_checkout_id: `fuzz-${randomBytes(8).toString("hex")}`, amounts: { ...(example.amounts as object), [field]: "AMOUNT" } };
        const request = { method: "POST" as const, url: createCheckout.path, headers: { ...credentials.apiKey, "content-type": "application/json" }, payload: JSON.stringify(body).replace('"AMOUNT"', raw) };
        const reply = await stack.app.inject(request);
        expectWellAnswered(reply, request);
        const value: unknown = JSON.parse(raw);
        const taken = amountAccepted(raw) && !(field === "total" && Number(value) === 0);
        if (!taken && !(field === "discount_total" && value === null)) {
          expect(reply.statusCode, raw).toBe(400);
          expect(reply.json().error, raw).toMatchObject({ code: "amount_invalid", param: `amounts.${field}` });
          return;
        }
        expect(reply.statusCode, `${raw}: ${reply.body}`).toBe(200);
        const shown = await stack.app.inject({ url: `${createCheckout.path}/${reply.json().id}`, headers: credentials.apiKey });
        expect(shown.json().amounts[field], raw).toStrictEqual(value);
      }),
      { seed: SEED, numRuns: AMOUNT_RUNS, endOnFailure: true },
    );
  });

  it("takes or refuses each form of a partial refund's amount by the rule", async () => {
    await fc.assert(
      fc.asyncProperty(amountText, async (raw) => {
        const request = {
          method: "POST" as const,
          url: "/api/merchants/refund_request/consumer_refund_request",
          headers: { authorization: consumerAuth, "content-type": "application/json" },
          payload: JSON.stringify({ transaction_uuid: refundUuid, amount: "AMOUNT" }).replace('"AMOUNT"', raw),
        };
        const reply = await world.stack.app.inject(request);
        expectWellAnswered(reply, request);
        if (amountAccepted(raw) && Number(JSON.parse(raw)) > 0) {
          // Taken: a refund, or more than is left of the payment.
          expect([200, 409], `${raw}: ${reply.body}`).toContain(reply.statusCode);
        } else {
          expect(reply.statusCode, raw).toBe(400);
          expect(reply.json().error, raw).toMatchObject({ code: "amount_invalid", param: "amount" });
        }
      }),
      { seed: SEED, numRuns: AMOUNT_RUNS, endOnFailure: true },
    );
  });

  // Last: it signs the consumer out and changes the payment the amount tests use.
  it("answers every operation below 500, every error in the error shape", { timeout: 600_000 }, async () => {
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (request) => {
          const reply = await world.stack.app.inject({ ...request, method: request.method as "GET" });
          expectWellAnswered(reply, { key: operation.key, ...request });
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
  });
});

/** The path of every leaf of a JSON value (the value itself when it has none). */
function pathsOf(value: unknown, at: string[] = []): string[][] {
  if (typeof value !== "object" || value === null) return at.length ? [at] : [];
  const entries = Object.entries(value as Record<string, unknown>);
  const inner = entries.flatMap(([key, child]) => pathsOf(child, [...at, key]));
  return inner.length ? inner : at.length ? [at] : [];
}
