import fc from "fast-check";

/** A JSON Schema node of the OpenAPI document (2020-12, as zod writes it). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  examples?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** Longest generated string or array where the schema allows more: enough to find bugs, cheap to send. */
const MAX_GENERATED = 40;

/**
 * Values the schema describes (most of them valid: refinements zod checks beyond the JSON
 * Schema, such as a checkout's total above 0, are the server's to refuse). `$ref`s resolve
 * against `schemas`, the document's components.
 */
export function arbitraryOf(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 8) return fc.constant(null);
  if (schema.$ref) return arbitraryOf(schemas[schema.$ref.replace("#/components/schemas/", "")], schemas, depth + 1);
  if ("const" in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf?.slice(0, 1);
  if (branches) return fc.oneof(...branches.map((b) => arbitraryOf(b, schemas, depth + 1)));
  const types = [schema.type ?? []].flat();
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => ofType(type, schema, schemas, depth)));
}

function ofType(type: string, schema: JsonSchema, schemas: Record<string, JsonSchema>, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringOf(schema);
    case "integer":
    case "number":
      return numberOf(type, schema);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = schema.minItems ?? 0;
      return fc.array(arbitraryOf(schema.items, schemas, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case "object": {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, schemas, depth + 1)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_GENERATED, MAX_GENERATED));
  if (schema.format === "date-time") return fc.date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === "uri") return fc.webUrl();
  if (schema.format === "email") return fc.emailAddress();
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
    } catch {
      // A pattern fast-check cannot generate from: plain strings, mostly refused.
    }
  }
  return fc.string({ minLength, maxLength });
}

function numberOf(type: string, schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum === undefined ? -1_000_000 : schema.exclusiveMinimum + 1);
  const max = schema.maximum ?? (schema.exclusiveMaximum === undefined ? 1_000_000 : schema.exclusiveMaximum - 1);
  const integers = fc.integer({ min: Math.ceil(Math.max(min, -1e15)), max: Math.floor(Math.min(max, 1e15)) });
  // Numbers also as money is written: whole cents.
  return type === "integer" ? integers : fc.oneof(integers, integers.map((n) => Math.min(max, Math.max(min, n / 100))), fc.double({ min, max, noNaN: true }));
}

/** Printable ASCII, what a client can put in a header. */
export const headerText = fc.string({ maxLength: 60, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

/** Values no schema wants: wrong types, huge and odd strings, nulls, deep nesting. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(null, true, false, 0, -1, -0, 1e308, -1e308, 5e-324, 2 ** 53 + 1, "", " ", "\u0000", "\ud800", "null", "NaN", "Infinity", "-1", "__proto__", "constructor", [], {}, [[]], { $where: "1" }, { $gt: "" }),
  fc.constantFrom("x".repeat(5_000), "é".repeat(3_000), "😀".repeat(2_000), "\u202e".repeat(500)),
  fc.integer({ min: 1, max: 400 }).map((depth) => nested(depth)),
);

/** An object `depth` levels deep, arrays and objects in turn. */
function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}
