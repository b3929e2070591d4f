/**
 * The dashboard bench's table and targets: each list row at each size, with the dashboard's
 * req/s over the API list's at the same size and cursor, and the largest size over the smallest.
 */
import type { LoadResult } from "../http/load.ts";
import type { ExportRow } from "./export-row.ts";
import type { PayoutRunRow } from "./payout-run.ts";
import { ms, percent } from "../http/table.ts";
import { sizeLabel } from "../http/figures.ts";

export type Surface = "api" | "dashboard";
export type Position = "first page" | "deep cursor";

export interface ListRow {
  surface: Surface;
  position: Position;
  size: number;
  result: LoadResult;
}

/** The targets of issue 22: the dashboard flat in the store's size, and at least half the API list's rate. */
export const TARGETS = { maxSlowdown: 1.5, minShareOfApi: 0.5 } as const;

const TITLE: Record<Surface, string> = { api: "API `GET /api/merchants/checkout?limit=25`", dashboard: "dashboard `GET /dashboard/checkouts`" };

export function renderTable(baseline: LoadResult, rows: readonly ListRow[]): string {
  const sizes = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
  const smallest = sizes[0];
  const find = (surface: Surface, position: Position, size: number | undefined) => rows.find((r) => r.surface === surface && r.position === position && r.size === size);
  const out = [
    "| row | size | req/s | p99 ms | errors | dashboard / API req/s | req/s at this size / at smallest |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| bare fastify hello (baseline) | — | ${baseline.rps.toFixed(0)} | ${ms(baseline.p99)} | ${baseline.errors} | — | — |`,
  ];
  for (const size of sizes) {
    for (const r of rows.filter((x) => x.size === size)) {
      const api = find("api", r.position, size);
      const share = r.surface === "dashboard" && api ? percent(r.result.rps / api.result.rps) : "—";
      const small = find(r.surface, r.position, smallest);
      const scale = size !== smallest && small ? `${(r.result.rps / small.result.rps).toFixed(2)}×` : "—";
      out.push(`| ${TITLE[r.surface]}, ${r.position} | ${sizeLabel(size)} | ${r.result.rps.toFixed(0)} | ${ms(r.result.p99)} | ${r.result.errors} | ${share} | ${scale} |`);
    }
  }
  return out.join("\n");
}

/** Each export with its rows per second, over the API list's (first-page req/s × the page's rows) at the same size. */
export function renderExports(exports: readonly ExportRow[], rows: readonly ListRow[], pageSize = 25): string {
  const out = [
    "| export | rows | seconds | rows/s | API list rows/s (baseline) | export / list | RSS before → peak MB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const e of exports) {
    const list = rows.find((r) => r.surface === "api" && r.position === "first page" && r.size === e.size)?.result;
    const listRows = list && list.rps > 0 ? list.rps * pageSize : null;
    const mb = (x: number | null) => (x === null ? "?" : x.toFixed(0));
    const rate = e.rows / e.seconds;
    out.push(
      `| checkouts.csv | ${e.rows} | ${e.seconds.toFixed(2)} | ${rate.toFixed(0)} | ${listRows === null ? "—" : listRows.toFixed(0)} | ` +
        `${listRows === null ? "—" : percent(rate / listRows)} | ${mb(e.rssBeforeMb)} → ${mb(e.rssPeakMb)} |`,
    );
  }
  for (const e of exports) {
    const series = e.rssByTenth.map((x) => (x === null ? "?" : x.toFixed(0))).join(", ");
    out.push("", `RSS of the ${e.rows}-row export at each tenth of its rows (MB, the highest sample in that tenth): ${series}`);
  }
  return out.join("\n");
}

/** The payout pass: seconds for all of it, payouts per second and round trips per payout, under the bench's baseline row. */
export function renderPayoutRun(baseline: LoadResult, run: PayoutRunRow): string {
  return [
    "| row | merchants | rows each | seconds | per second | store round trips per payout | payments calls per payout |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| bare fastify hello (baseline) | — | — | — | ${baseline.rps.toFixed(0)} req/s | — | — |`,
    `| payout pass | ${run.merchants} | ${run.rowsPerMerchant} | ${run.seconds.toFixed(1)} | ${(run.payouts / run.seconds).toFixed(0)} payouts/s | ` +
      `${(run.storeCalls / run.payouts).toFixed(1)} | ${(run.rpcCalls / run.payouts).toFixed(1)} |`,
  ].join("\n");
}

/** One line per target, met or missed; `missed` counts the misses (the bench exits 1 on any). */
export function checkTargets(rows: readonly ListRow[]): { lines: string[]; missed: number } {
  const sizes = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  const lines: string[] = [];
  let missed = 0;
  const verdict = (ok: boolean, text: string) => {
    if (!ok) missed += 1;
    lines.push(`- ${ok ? "met" : "**MISSED**"}: ${text}`);
  };
  for (const r of rows) {
    if (r.result.errors > 0) verdict(false, `${r.surface} ${r.position} at ${sizeLabel(r.size)} answered ${r.result.errors} errors`);
  }
  for (const position of ["first page", "deep cursor"] as const) {
    const at = (surface: Surface, size: number | undefined) => rows.find((r) => r.surface === surface && r.position === position && r.size === size)?.result;
    const dashSmall = at("dashboard", small);
    const dashLarge = at("dashboard", large);
    if (dashSmall && dashLarge && small !== large) {
      const slowdown = dashSmall.rps / dashLarge.rps;
      verdict(
        slowdown <= TARGETS.maxSlowdown,
        `dashboard ${position} at ${sizeLabel(large ?? 0)} within ${TARGETS.maxSlowdown}× of ${sizeLabel(small ?? 0)}: ` +
          `${dashLarge.rps.toFixed(0)} vs ${dashSmall.rps.toFixed(0)} req/s (${slowdown.toFixed(2)}×)`,
      );
      const p99Slowdown = dashLarge.p99 / dashSmall.p99;
      verdict(
        p99Slowdown <= TARGETS.maxSlowdown,
        `dashboard ${position} p99 at ${sizeLabel(large ?? 0)} within ${TARGETS.maxSlowdown}× of ${sizeLabel(small ?? 0)}: ` +
          `${ms(dashLarge.p99)} vs ${ms(dashSmall.p99)} ms (${p99Slowdown.toFixed(2)}×)`,
      );
    }
    for (const size of sizes) {
      const dash = at("dashboard", size);
      const api = at("api", size);
      if (!dash || !api) continue;
      verdict(
        dash.rps >= TARGETS.minShareOfApi * api.rps,
        `dashboard ${position} at ${sizeLabel(size)} ≥ ${percent(TARGETS.minShareOfApi)} of the API list's req/s: ` +
          `${dash.rps.toFixed(0)} vs ${api.rps.toFixed(0)} (${percent(dash.rps / api.rps)})`,
      );
    }
  }
  return { lines, missed };
}
