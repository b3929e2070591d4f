import { type Command } from "commander";
import { durationOption } from "./duration-option.ts";

/**
 * `payrail check`: reports every divergence between checkouts, transaction records, refunds,
 * payouts, outboxes and the events API, one line each; exit status 1 when there is any. Money
 * the merchant must act on (over-returned refunds) is listed after, as `attention:` lines. It
 * reads the store (MONGODB_URL, or the embedded one, also beside a running `payrail start`:
 * SQLite's WAL lets a second process read while the first writes) and writes no document.
 */
export function defineCommand(check: Command): void {
  check
    .option("--grace <duration>", "leave out changes younger than this (their events may be on their way)", durationOption, 60_000)
    .action(async (o: { grace: number }) => (await import("./check/run-check.ts")).runCheck(o.grace));
}
