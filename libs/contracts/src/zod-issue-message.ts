import type { z } from "zod";

/** What each of zod's expected types is called in the API's messages. */
const TYPE_WORDS: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  date: "a date",
  null: "null",
};

const FORMAT_WORDS: Record<string, string> = {
  url: "an absolute URL",
  email: "an email address",
  uuid: "a UUID",
  datetime: "an ISO 8601 date and time",
  date: "an ISO 8601 date",
};

/**
 * The API's own words for a zod issue (a phrase after the field name: "must be a number"),
 * never the library's ("Invalid input: expected number, received NaN"). A message a schema
 * wrote itself ("must be a merchant id") is kept. One place, used by every 400 the gateway
 * and the services build from a schema.
 */
export function issueWords(issue: z.core.$ZodIssue): string {
  const own = issue.message;
  if (/^(must|is|only|has)\b/.test(own)) return own;
  switch (issue.code) {
    case "invalid_type":
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case "too_small":
      return bound("at least", issue.origin, Number(issue.minimum), issue.inclusive !== false, "more than");
    case "too_big":
      return bound("at most", issue.origin, Number(issue.maximum), issue.inclusive !== false, "less than");
    case "invalid_format":
      return FORMAT_WORDS[issue.format] ? `must be ${FORMAT_WORDS[issue.format]}` : "is not in the expected format";
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `has keys that are not accepted: ${issue.keys.join(", ")}`;
    default:
      return "is invalid";
  }
}

function bound(words: string, origin: string, limit: number, inclusive: boolean, exclusiveWords: string): string {
  if (origin === "string") return limit === 1 && words === "at least" ? "must not be empty" : `must be ${words} ${limit} characters long`;
  if (origin === "array" || origin === "set") return `must have ${words} ${limit} ${limit === 1 ? "item" : "items"}`;
  return inclusive ? `must be ${words} ${limit}` : `must be ${exclusiveWords} ${limit}`;
}
