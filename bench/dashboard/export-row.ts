/**
 * One CSV export read to its end, as a finance team's download would: `GET
 * /api/merchants/exports/checkouts.csv` with no window (every checkout the merchant has), its rows
 * counted, and the server's resident memory sampled meanwhile. The export pages the same list the
 * API serves, so the API list's rows per second at the same size (its first-page row × the page
 * size) is its baseline: what paging that list costs without the CSV.
 */
import { performance } from "node:perf_hooks";
import type { Deployment } from "../http/deployments.ts";

export interface ExportRow {
  size: number;
  rows: number;
  seconds: number;
  /** The server's RSS just before the export, and its highest sample during it (MB). */
  rssBeforeMb: number | null;
  rssPeakMb: number | null;
  /** The highest RSS sample in each tenth of the rows read (MB): flat when memory is constant. */
  rssByTenth: (number | null)[];
}

const RSS_SAMPLE_MS = 100;

export async function measureExport(d: Deployment, apiKey: string, size: number): Promise<ExportRow> {
  const server = d.processes[0];
  const rssBeforeMb = server?.rssMb() ?? null;
  let rssPeakMb = rssBeforeMb;
  let tenthPeakMb = rssBeforeMb;
  const rssByTenth: (number | null)[] = [];
  const sample = () => {
    const now = server?.rssMb() ?? null;
    if (now === null) return;
    if (rssPeakMb === null || now > rssPeakMb) rssPeakMb = now;
    if (tenthPeakMb === null || now > tenthPeakMb) tenthPeakMb = now;
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const t0 = performance.now();
  let lines = 0;
  try {
    const res = await fetch(`${d.url}/api/merchants/exports/checkouts.csv`, { headers: { "api-key": apiKey } });
    if (res.status !== 200 || !res.body) throw new Error(`checkouts.csv: ${res.status} ${await res.text()}`);
    // Records end in CRLF; no seeded field holds a line break, so CRLFs count the records.
    let carry = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      const text = carry + decoder.decode(chunk, { stream: true });
      const parts = text.split("\r\n");
      carry = parts.pop() ?? "";
      lines += parts.length;
      // Each tenth of the rows (the header line aside) closes its window of samples.
      while (rssByTenth.length < 10 && lines - 1 >= (size * (rssByTenth.length + 1)) / 10) {
        sample();
        rssByTenth.push(tenthPeakMb);
        tenthPeakMb = null;
      }
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  const rows = lines - 1;
  if (rows !== size) throw new Error(`checkouts.csv: ${rows} rows, expected the ${size} seeded`);
  return { size, rows, seconds, rssBeforeMb, rssPeakMb, rssByTenth };
}
