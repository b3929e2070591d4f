import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FraudMonitoringEvidence } from "@payrail/contracts";
import type { Command } from "commander";
import { whyFetchFailed } from "./fetch-failure.ts";
import { payrailApiKey, payrailUrl } from "./payrail-target.ts";

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; formulas defused for spreadsheets. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** The evidence as files: the whole of it as JSON, and one CSV per table an auditor reads in a spreadsheet. */
export function evidenceFiles(e: FraudMonitoringEvidence): Record<string, string> {
  return {
    "fraud-monitoring.json": JSON.stringify(e, null, 2) + "\n",
    "rules.csv": csv(
      ["rule_set", "in_force_since", "in_force_until", "rule", "version", "version_since", "description", "setting", "value"],
      e.rule_sets.flatMap((s) => s.rules.flatMap((r) => Object.entries(r.thresholds).map(([k, v]) => [s.id, s.since, s.until, r.id, r.version, r.version_since, r.description, k, v]))),
    ),
    "reviews.csv": csv(
      ["id", "checkout_id", "transaction_uuid", "kind", "amount", "currency", "status", "rules", "opened_at", "expires_at", "closed_at", "closed_by"],
      e.reviews.map((r) => [r.id, r.checkout_id, r.transaction_uuid, r.kind, r.amount, r.currency, r.status, r.rules.map((h) => `${h.rule} v${h.version}`).join(" "), r.opened_at, r.expires_at, r.closed_at, r.closed_by ? `${r.closed_by.type}:${r.closed_by.id}` : ""]),
    ),
    "return-rates.csv": csv(["month", "debits", "returns", "unauthorized_returns", "rate"], e.return_rates.map((m) => [m.month, m.debits, m.returns, m.unauthorized_returns, m.rate])),
    "annual-reviews.csv": csv(["id", "reviewed_at", "reviewed_by", "notes"], e.annual_reviews.map((a) => [a.id, a.reviewed_at, `${a.reviewed_by.type}:${a.reviewed_by.id}`, a.notes])),
  };
}

/**
 * `payrail compliance export --out DIR`: the merchant's fraud-monitoring evidence
 * (GET /api/merchants/compliance/fraud_monitoring, with its api-key) written as JSON and CSV
 * files for an auditor (docs/guide/compliance.md). Answers the files written.
 */
export async function exportCompliance(options: { api: string; apiKey: string; out: string }): Promise<string[]> {
  const url = `${options.api}/api/merchants/compliance/fraud_monitoring`;
  const reply = await fetch(url, { headers: { "api-key": options.apiKey } }).catch((err: unknown) => {
    throw new Error(`could not reach Payrail at ${options.api}: ${whyFetchFailed(err)}`);
  });
  if (!reply.ok) throw new Error(`GET ${url} answered ${reply.status}: ${await reply.text()}`);
  const files = evidenceFiles((await reply.json()) as FraudMonitoringEvidence);
  await mkdir(options.out, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(options.out, name), text);
    written.push(join(options.out, name));
  }
  return written;
}

export function defineCommand(compliance: Command): void {  compliance
    .command("export")
    .description("write the fraud-monitoring evidence (rules in force, reviews, monthly return rates, annual reviews) as JSON and CSV files")
    .requiredOption("--out <dir>", "the directory to write the files into (created if missing)")
    .option("--api-key <key>", "the merchant's api-key (default: PAYRAIL_API_KEY, else the demo merchant's in DATA_DIR)")
    .option("--api <url>", "the Payrail API (default: PAYRAIL_URL, else PAYRAIL_API, else http://127.0.0.1:$PORT)")
    .action(async (o: { out: string; apiKey?: string; api?: string }) => {
      const apiKey = o.apiKey ?? (await payrailApiKey());
      if (!apiKey) compliance.error("compliance export needs --api-key <key> (or PAYRAIL_API_KEY, or the demo merchant of a `npm start` in DATA_DIR)", { exitCode: 2 });
      try {
        for (const file of await exportCompliance({ api: o.api?.replace(/\/+$/, "") ?? payrailUrl(), apiKey: apiKey!, out: o.out })) console.log(file);
      } catch (err) {
        compliance.error((err as Error).message, { exitCode: 1 });
      }
    });
}
