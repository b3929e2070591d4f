import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ERROR_CODES, type ErrorCode } from "@payrail/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../../bin/openapi-document.ts";
import { embeddedVariant } from "../../../test/support/infra.ts";
import { ADMIN_TOKEN, startStack, type Stack } from "../../../test/support/stack.ts";

interface Operation {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, Response>;
}
interface Response {
  $ref?: string;
  content?: Record<string, { examples?: Record<string, { value: { error: { code: string } } }> }>;
}
interface Document {
  servers: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { name: string }>; responses: Record<string, Response> };
}

const CREDENTIAL_HEADERS = ["api-key", "authorization", "link-token", "x-admin-token"];
const doc = (await openApiDocument()) as unknown as Document;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })),
);
const byId = (id: string) => operations.find(({ op }) => op.operationId === id)!.op;
/** The error codes of one response, a shared one (`$ref`) looked up under components. */
const codesOf = (response: Response) => {
  const resolved = response.$ref ? doc.components.responses[response.$ref.replace("#/components/responses/", "")] : response;
  return Object.keys(resolved?.content?.["application/json"]?.examples ?? {});
};

describe("the OpenAPI document", () => {
  it("gives every operation a unique operationId, a description and its security", () => {
    expect(operations.length).toBeGreaterThan(25);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op } of operations) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.description, key).toBeTruthy();
      expect(Array.isArray(op.security), key).toBe(true);
      // Credentials are security schemes, never optional header parameters Try-it sends empty.
      const headers = (op.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name.toLowerCase());
      expect(headers.filter((h) => CREDENTIAL_HEADERS.includes(h)), key).toEqual([]);
    }
    expect(byId("createCheckout").security).toEqual([{ apiKey: [] }]);
    expect(byId("listTransactions").security).toEqual([{ authToken: [] }]);
    expect(byId("decideRefund").security).toEqual([{ apiKey: [] }, { authToken: [] }]);
    expect(byId("createBankLinkToken").security).toEqual([{ authToken: [], linkToken: [] }]);
    expect(byId("createMerchant").security).toEqual([{ adminToken: [] }]);
    expect(byId("sendCode").security).toEqual([]);
    expect(doc.servers.length).toBeGreaterThan(0);
  });

  it("lists every path exactly as the specification writes it, trailing slash included, beside the form without", () => {
    // The specification's 14 routes, as its tables write them (a validating proxy matches them literally).
    const specification = [
      "post /api/merchants/checkout",
      "get /api/merchants/checkout/{checkout_id}",
      "get /api/merchants/checkout/{checkout_id}/generate_link_token",
      "post /api/verify_user/send_code",
      "post /api/verify_user/verify_code",
      "post /api/consumers/checkout/{checkout_id}/create_link_token/",
      "post /api/consumers/checkout/{checkout_id}/exchange_public_token/",
      "post /api/merchants/payment_preprocess/get_processor_token",
      "get /api/merchants/manage_subscription/get_subscription_details/",
      "post /api/merchants/manage_subscription/subscription_cancel/",
      "post /api/merchants/refund_request/consumer_refund_request/",
      "get /api/merchants/refund_request/consumer_refund_list/",
      "post /api/merchants/refund_request/merchant_status_refund_request/",
      "post /api/merchants/refund_request/initiate_refund_transfer/",
    ];
    const keys = operations.map(({ key }) => key);
    for (const route of specification) {
      expect(keys, route).toContain(route);
      if (route.endsWith("/")) {
        expect(keys).toContain(route.slice(0, -1));
        const [method, path] = route.split(" ") as [string, string];
        const { operationId: _slash, description: _sd, ...slashOp } = doc.paths[path]![method]!;
        const { operationId: _plain, description: _pd, ...plainOp } = doc.paths[path.slice(0, -1)]![method]!;
        expect(slashOp, route).toEqual(plainOp); // the same parameters, body, security and answers
      }
    }
  });

  it("describes every field and parameter, gives every path parameter an example, and no optional filter one that Try-it would fill in", () => {
    const undescribed = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (typeof value !== "object" || value === null) return;
      const node = value as Record<string, unknown>;
      const properties = node.properties as Record<string, { description?: string }> | undefined;
      for (const [name, schema] of Object.entries(properties ?? {})) if (!schema.description) undescribed.add(name);
      for (const [key, child] of Object.entries(node)) if (key !== "example" && key !== "examples") walk(child);
    };
    walk(doc.paths);
    walk(doc.components);
    // A new field needs a line in services/gateway/src/openapi/field-glossary.ts, or a .describe() in its schema.
    expect([...undescribed]).toEqual([]);
    for (const { key, op } of operations) {
      for (const p of (op.parameters ?? []) as { in: string; name: string; required?: boolean; description?: string; example?: unknown; schema?: { examples?: unknown[] } }[]) {
        expect(p.description, `${key} ${p.name}`).toBeTruthy();
        if (p.in === "path") expect(p.example, `${key} ${p.name}`).toBeDefined();
        // Swagger UI's Try-it fills a parameter's `example` in: an optional filter keeps its example in the schema.
        if (p.in === "query" && !p.required) expect(p.example, `${key} ${p.name}`).toBeUndefined();
      }
    }
    const refunds = doc.paths["/api/merchants/refunds"]!.get!.parameters!;
    expect(refunds.find((p) => p.name === "transaction_uuid")).toMatchObject({ schema: { examples: ["sc-0123456789abcdef0123456789abcdef"] } });
  });

  it("lists each error code under the status the registry gives it", () => {
    for (const { key, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2")) continue;
        const codes = codesOf(response);
        expect(codes.length, `${key} ${status}`).toBeGreaterThan(0);
        for (const code of codes) expect(ERROR_CODES[code as ErrorCode], `${key} ${code}`).toBe(Number(status));
      }
    }
    const createErrors = Object.values(byId("createCheckout").responses).flatMap(codesOf);
    expect(createErrors).toEqual(expect.arrayContaining(["api_key_missing", "amount_invalid", "duplicate_merchant_checkout_id", "invalid_json"]));
  });

  it("writes an error response two operations answer alike once, under components, and lists the operation's own codes first", () => {
    const inline = new Map<string, string>();
    for (const { key, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2") || response.$ref) continue;
        const set = `${status} ${[...codesOf(response)].sort().join(",")}`;
        expect(inline.get(set), `${key} answers ${set} inline, as does`).toBeUndefined();
        inline.set(set, key);
      }
    }
    const shared = doc.components.responses;
    expect(byId("createCheckout").responses["429"]).toEqual({ $ref: "#/components/responses/RateLimited" });
    expect(codesOf(shared["AmountInvalidOrInvalidJsonOrParameterMissingOrParameterInvalid"]!)).toEqual(["amount_invalid", "invalid_json", "parameter_missing", "parameter_invalid"]);
    // Every shared response is used by two operations or more.
    const refs = operations.flatMap(({ op }) => Object.values(op.responses).flatMap((r) => (r.$ref ? [r.$ref] : [])));
    for (const name of Object.keys(shared)) expect(refs.filter((r) => r === `#/components/responses/${name}`).length, name).toBeGreaterThan(1);
  });

  it("lints clean with redocly (the recommended rules and the project's)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "payrail-openapi-"));
    try {
      const file = join(dir, "openapi.json");
      await writeFile(file, JSON.stringify(doc));
      const run = promisify(execFile)("npx", ["redocly", "lint", "--config", "redocly.yaml", "--format", "summary", file], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
      const { stdout, stderr } = await run;
      expect(`${stdout}${stderr}`).not.toMatch(/\b(error|warning)\b\s+\S+: \d+/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** What Swagger UI's Try-it sends after Authorize: each scheme's header, the documented example body. */
describe("Try-it after Authorize", () => {
  const variant = embeddedVariant();
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(variant);
  });
  afterAll(async () => {
    await stack.close();
    await variant.cleanup();
  });

  it("creates a merchant with the admin scheme, then a checkout from the example body with the api-key scheme", async () => {
    const schemes = doc.components.securitySchemes;
    const merchant = await stack.app.inject({
      method: "POST",
      url: "/api/admin/merchants",
      headers: { [schemes.adminToken!.name]: ADMIN_TOKEN },
      payload: { name: "Docs reader" },
    });
    expect(merchant.statusCode, merchant.body).toBe(200);
    const example = byId("createCheckout").requestBody!.content["application/json"]!.example as Record<string, unknown>;
    const created = await stack.app.inject({
      method: "POST",
      url: "/api/merchants/checkout",
      headers: { [schemes.apiKey!.name]: merchant.json().api_key },
      payload: example,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().id).toMatch(/^chk_/);
  });
});
