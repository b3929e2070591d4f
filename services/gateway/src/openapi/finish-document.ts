import type { ErrorCode } from "@payrail/contracts";
import { REQUEST_EXAMPLES } from "./examples.ts";
import { FIELD_GLOSSARY, PARAMETER_EXAMPLES } from "./field-glossary.ts";
import { OPERATION_DOCS } from "./operation-docs.ts";
import { addSpecSlashPaths } from "./spec-slash-paths.ts";
import { errorCodesOf, errorResponsesOf, type SchemeName } from "./operation-errors.ts";
import { shareErrorResponses } from "./shared-error-responses.ts";

type Json = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: { pattern?: string; examples?: unknown[] };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Json> };
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Credential headers are security schemes, not parameters: as optional header parameters
 * Swagger UI's Try-it sent them empty (`api-key: null`, a 401) and ignored Authorize.
 */
const CREDENTIAL_HEADERS: Record<string, SchemeName> = {
  "api-key": "apiKey",
  authorization: "authToken",
  "link-token": "linkToken",
  "x-admin-token": "adminToken",
};
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/**
 * Completes the document fastify-swagger generated from the route schemas: each operation's
 * security from the credential headers it reads, an operationId, its description, and every
 * error it can answer with its status and code (those answered alike shared under
 * `components.responses`). Run on every build of `/openapi.json`.
 */
export function finishDocument(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      // A route with several methods shares one object between them: each gets its own.
      const op = item[method];
      if (op) item[method] = finishOperation(structuredClone(op), method, path);
    }
  }
  addSpecSlashPaths(paths as Record<string, Record<string, Record<string, unknown>>>);
  const tidy = tidyComponents(document);
  shareErrorResponses(tidy);
  describeFields(tidy.paths);
  describeFields(tidy.components);
  dropUnusedSchemes(tidy);
  return tidy;
}

/**
 * A security scheme no operation uses is left out: with the admin routes off (ADMIN_TOKEN
 * unset), /docs' Authorize dialog would otherwise ask for an admin token nothing accepts.
 */
function dropUnusedSchemes(document: Json): void {
  const schemes = (document.components as { securitySchemes?: Record<string, unknown> } | undefined)?.securitySchemes;
  if (!schemes) return;
  const used = new Set<string>();
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(item)) for (const requirement of (op.security ?? []) as Record<string, unknown>[]) for (const name of Object.keys(requirement)) used.add(name);
  }
  for (const name of Object.keys(schemes)) if (!used.has(name)) delete schemes[name];
}

/** Gives every schema property without a description of its own the glossary's. */
function describeFields(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) describeFields(item);
  if (typeof value !== "object" || value === null) return;
  const node = value as Json;
  const properties = node.properties as Record<string, Json> | undefined;
  if (properties && typeof properties === "object") {
    for (const [name, schema] of Object.entries(properties)) {
      if (typeof schema === "object" && schema !== null && !schema.description && FIELD_GLOSSARY[name]) schema.description = FIELD_GLOSSARY[name];
    }
  }
  for (const [key, child] of Object.entries(node)) if (key !== "example" && key !== "examples") describeFields(child);
}

/**
 * fastify-type-provider-zod emits each registered schema twice, as input (`XInput`) and
 * output (`X`); only the ones the paths reach stay, and an input reached alone takes the
 * plain name.
 */
function tidyComponents(document: Json): Json {
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
  const schemas = components.schemas ?? {};
  const reached = new Set<string>();
  const visit = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (name && !reached.has(name)) {
        reached.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit(document.paths);
  const renames = [...reached].filter((name) => name.endsWith("Input") && !reached.has(name.slice(0, -5)));
  let text = JSON.stringify({ ...document, components: { ...components, schemas: pick(schemas, reached) } });
  for (const name of renames) text = text.replaceAll(`#/components/schemas/${name}"`, `#/components/schemas/${name.slice(0, -5)}"`);
  const tidy = JSON.parse(text) as { components: { schemas: Record<string, unknown> } };
  for (const name of renames) {
    tidy.components.schemas[name.slice(0, -5)] = tidy.components.schemas[name];
    delete tidy.components.schemas[name];
  }
  return tidy as unknown as Json;
}

function pick(record: Record<string, unknown>, keys: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => keys.has(key)));
}

function finishOperation(op: Operation, method: string, path: string): Operation {
  const doc = OPERATION_DOCS[`${method} ${path}`];
  const params = op.parameters ?? [];
  const schemes = params.flatMap((p) => (p.in === "header" && CREDENTIAL_HEADERS[p.name.toLowerCase()]) || []);
  const rest = params.filter((p) => !(p.in === "header" && CREDENTIAL_HEADERS[p.name.toLowerCase()]));
  for (const p of rest) {
    p.description ??= FIELD_GLOSSARY[p.name];
    const pattern = p.schema?.pattern ? new RegExp(p.schema.pattern) : null;
    const example = PARAMETER_EXAMPLES[p.name]?.find((v) => !pattern || pattern.test(String(v)));
    if (example === undefined) continue;
    // Swagger UI's Try-it fills a parameter in from its `example`: an optional query parameter
    // is a filter (or a page size with its own default), so its example is kept in the schema,
    // which Try-it leaves alone; filled in, GET /api/merchants/refunds answered [] by default.
    if (p.in === "path" || (p.in === "query" && p.required)) p.example ??= example;
    else if (p.in === "query" && p.schema) p.schema.examples ??= [example];
  }
  if (rest.length > 0) op.parameters = rest;
  else delete op.parameters;
  op.security = securityOf(schemes);
  const operationId = doc?.operationId ?? operationIdOf(method, path);
  op.operationId = operationId;
  if (doc) op.description = doc.description;
  const media = op.requestBody?.content?.["application/json"];
  if (media && REQUEST_EXAMPLES[operationId] !== undefined) media.example = REQUEST_EXAMPLES[operationId];

  const own: readonly ErrorCode[] = doc?.errors ?? [];
  const codes = errorCodesOf(own, { schemes, hasBody: op.requestBody !== undefined, hasInput: rest.length > 0 });
  const success = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith("2"));
  op.responses = {
    ...Object.fromEntries(success.map(([status, response]) => [status, { ...(response as Json), description: "OK" }])),
    ...errorResponsesOf(codes),
  };
  return op;
}

/**
 * One requirement per alternative: the merchant refund routes take an api-key or an
 * operator's token; bank linking takes an auth token and a link token together.
 */
function securityOf(schemes: readonly SchemeName[]): Record<string, string[]>[] {
  if (schemes.length === 0) return [];
  if (schemes.includes("linkToken")) return [Object.fromEntries(schemes.map((s) => [s, []]))];
  return schemes.map((s) => ({ [s]: [] }));
}

/** `post /api/merchants/webhook_endpoints/{id}` → `postMerchantsWebhookEndpointsId`. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}
