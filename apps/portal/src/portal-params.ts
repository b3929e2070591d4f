import { AppError } from "@payrail/contracts";

const TRANSACTION_UUID = /^sc-[0-9a-f]{32}$/;

/** A transaction_uuid from a portal path; anything else is as absent as another consumer's. */
export function transactionUuidParam(params: unknown): string {
  const value = (params as Record<string, unknown>)["transaction_uuid"];
  if (typeof value !== "string" || !TRANSACTION_UUID.test(value)) throw new AppError("transaction_not_found", "There is no such payment in your account.");
  return value;
}

/** A list's `cursor` from the query (the next_cursor of the page before), or undefined. */
export function cursorParam(query: unknown): string | undefined {
  const value = (query as Record<string, unknown>)["cursor"];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) throw new AppError("parameter_invalid", "This page link is not valid.", { param: "cursor" });
  return value;
}
