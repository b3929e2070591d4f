import type { z } from "zod";
import { AppError, isErrorCode, type ErrorCode } from "./errors.ts";
import { issueWords } from "./zod-issue-message.ts";

/** Dotted path of an issue, e.g. `amounts.total` or `items.0.sku`. */
export function issuePath(issue: z.core.$ZodIssue, prefix?: string): string {
  const path = issue.path.map(String).join(".");
  return prefix ? (path ? `${prefix}.${path}` : prefix) : path;
}

/**
 * Turns the first zod issue into the API's error (docs/api-notes.md, Answers and errors: `param` names the first bad
 * field). Schemas pick a specific code with `params: {code}`; otherwise a missing field is
 * `parameter_missing`, anything under `amounts` is `amount_invalid`, the rest `parameter_invalid`.
 */
export function appErrorFromIssues(issues: readonly z.core.$ZodIssue[], prefix?: string): AppError {
  const issue = issues[0] && lastBranchIssue(issues[0]);
  if (!issue) return new AppError("invalid_request", "request is invalid");
  const param = issuePath(issue, prefix);
  const code = codeOf(issue, param);
  const label = param || "body";
  const message = code === "parameter_missing" ? `${label} is required` : `${label} ${issueWords(issue)}`;
  return new AppError(code, message, param ? { param } : {});
}

/**
 * A union none of whose branches matched is described by its last branch's first issue:
 * the value's real form comes last (after `""` and `null` in `blankable`), so a bad phone
 * number says "must be E.164", not zod's "Invalid input".
 */
function lastBranchIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== "invalid_union") return issue;
  const inner = issue.errors.at(-1)?.[0];
  return inner ? lastBranchIssue({ ...inner, path: [...issue.path, ...inner.path] }) : issue;
}

function codeOf(issue: z.core.$ZodIssue, param: string): ErrorCode {
  const custom = (issue as { params?: { code?: unknown } }).params?.code;
  if (isErrorCode(custom)) return custom;
  if (issue.code === "invalid_type" && isMissing(issue)) return "parameter_missing";
  if (/^amounts\.(total|subtotal|tax|shipping|discount_total)$/.test(param)) return "amount_invalid";
  return "parameter_invalid";
}

/**
 * zod reports the offending input only when asked (`reportInput`); without it the message
 * ("… received undefined") is what tells a missing field from a wrong one.
 */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if ("input" in issue) return issue.input === undefined;
  return /received undefined$/.test(issue.message);
}

/** Parses `value` or throws the API's 400 for the first bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw appErrorFromIssues(result.error.issues, prefix);
  return result.data;
}
