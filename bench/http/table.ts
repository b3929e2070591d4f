/** The report as markdown: one table per size and mode, the scaling lines, then the targets. */
import { noticesShare, screeningShare } from "./flow-variants.ts";
import { anchorOf, MODE_TITLES, sizeLabel, type MeasuredRow, type ModeFigures, type SizeFigures } from "./figures.ts";

const HEAD =
  "| row | req/s | p50 ms | p99 ms | errors | ratio | of lean anchor | CPU µs/req | RSS MB |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |";

export function renderSizes(sizes: SizeFigures[]): string {
  return sizes.map(renderSize).join("\n");
}

function renderSize(figures: SizeFigures): string {
  const { baseline, ceiling } = figures.reference;
  const out = [`## ${sizeLabel(figures.size)} stored checkouts`, "", "### reference", "", HEAD];
  out.push(line(baseline, "baseline", baseline.result.rps));
  if (ceiling) out.push(line(ceiling, "baseline", baseline.result.rps));
  const { anchor } = figures.reference;
  if (anchor) for (const r of [anchor.get, anchor.create]) out.push(line(r, "baseline", baseline.result.rps));
  out.push("", "RSS MB: the server process (ceiling: echo service + echo gateway). Of lean anchor: Payrail's Get and Create as a share of the anchor's. " +
      "CPU µs/req: the server processes' CPU time (user + system, all of them, not the load generator's nor the broker's) over the measured part of the row, per response.", "");
  for (const mode of figures.modes) {
    const [against, reference] = mode.mode === "embedded" ? (["baseline", baseline] as const) : (["ceiling", ceiling] as const);
    out.push(`### ${MODE_TITLES[mode.mode]}`, "");
    const seeded = mode.mode === "rabbitmq" ? "Data: a copy of the embedded store seeded for this size" : `Seeded through the store in ${mode.seedS.toFixed(1)} s`;
    out.push(
      `${seeded}; start-up (spawn → /readyz 200) ${mode.startupS.toFixed(2)} s; ` +
        `RSS MB: ${mode.processes.map((p) => p.name).join(" + ")}.`,
      "",
      HEAD,
    );
    for (const r of mode.rows) out.push(line(r, against, reference?.result.rps, anchorOf(anchor, r.name)?.result.rps));
    out.push("", ...mode.rows.flatMap(eventsLine), flowLine(mode), "", ...variantLines(mode));
  }
  for (const failure of figures.failures) out.push(`**Not measured**: ${failure}`, "");
  return out.join("\n");
}

function line(r: MeasuredRow, against: string, referenceRps: number | undefined, anchorRps?: number): string {
  let name = r.rate ? `${r.name} (${Math.round(r.rate)} req/s offered)` : r.name;
  // Fewer answers than connections: most requests outlived the row, so its figures mean little.
  if (!r.rate && r.result.requests < r.connections) name += " ⚠ fewer responses than connections";
  // A rate-limited row runs at the rate it was offered: its ratio would say nothing.
  const ratio = r.rate ? "—" : referenceRps ? `${percent(r.result.rps / referenceRps)} of ${against}` : "n/a";
  const rss = r.rssMb.map((mb) => (mb === null ? "?" : mb.toFixed(0))).join(" + ");
  const share = !r.rate && anchorRps ? percent(r.result.rps / anchorRps) : "—";
  const cpu = r.cpuUsPerRequest === null ? "?" : r.cpuUsPerRequest.toFixed(0);
  return `| ${name} | ${r.result.rps.toFixed(0)} | ${ms(r.result.p50)} | ${ms(r.result.p99)} | ${r.result.errors} | ${ratio} | ${share} | ${cpu} | ${rss} |`;
}

/** A Create row's events: when they were all delivered, and the CPU per create with them. */
function eventsLine(r: MeasuredRow): string[] {
  if (r.eventsAfterS === undefined) return [];
  if (r.eventsAfterS === null) return [`${r.name}: its events not all delivered within 3 minutes of the row.`, ""];
  const cpu = r.cpuUsWithEvents == null ? "" : `; CPU with their delivery ${r.cpuUsWithEvents.toFixed(0)} µs per create`;
  return [`${r.name}: its events all delivered ${r.eventsAfterS.toFixed(1)} s after the row${cpu}.`, ""];
}

function flowLine(mode: ModeFigures): string {
  const f = mode.flow;
  if (!f) return "Full flow: not run.";
  const failed = f.errors ? ` (first: ${f.firstError})` : "";
  return (
    `Full flow: **${f.flowsPerS.toFixed(1)} flows/s** (${f.flows} flows completed), ` +
    `p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms, ${f.errors} failed${failed}` +
    (f.cpuMsPerFlow === undefined ? "." : `; server CPU ${f.cpuMsPerFlow.toFixed(2)} ms per flow.`)
  );
}

/** The flow with notices off and on, and screening's CPU per first charge (flow-variants.ts). */
function variantLines(mode: ModeFigures): string[] {
  const v = mode.flowVariants;
  if (!v) return [];
  const cpu = (f: { cpuMsPerFlow?: number }) => (f.cpuMsPerFlow === undefined ? "?" : f.cpuMsPerFlow.toFixed(2));
  const out = [
    "Full flow with and without the fourth wave's additions (bench/http/servers/payrail-variant.server.ts, both through tsx, NODE_ENV=production):",
    "",
    "| variant | flows/s | p50 ms | p99 ms | failed | server CPU ms/flow | the same until idle after the row |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const [name, f] of [["notices on (every service)", v.noticesOn], ["notices off (every service but notices)", v.noticesOff]] as const) {
    const settled = f.cpuMsPerFlowSettled === undefined ? "?" : f.cpuMsPerFlowSettled.toFixed(2);
    out.push(`| ${name} | ${f.flowsPerS.toFixed(1)} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.errors} | ${cpu(f)} | ${settled} |`);
  }
  out.push("");
  const notices = noticesShare(v);
  if (notices !== null) out.push(`Notices add ${percent(notices)} to a flow's CPU ((on − off) ÷ off, each until idle after its row).`, "");
  if (v.screening) {
    const share = screeningShare(v);
    out.push(
      `Screening, replayed on the same store for the ${v.screening.debits} first charges of the "notices on" row (${v.screening.flagged} flagged): ` +
        `${v.screening.cpuMsPerDebit.toFixed(3)} ms CPU each` +
        (share === null ? "." : `, ${percent(share)} of the rest of the flow's CPU (screening ÷ (the flow's CPU until idle − screening)).`),
      "",
    );
  }
  return out;
}

/** Cost per request (1 / req/s) at the largest size over the smallest, per mode and row. */
export function renderScaling(sizes: SizeFigures[]): string {
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  if (!small || !large || small === large) return "## Scaling\n\nOne size measured: no cost ratio (run with two sizes or more).\n";
  const out = [
    `## Scaling: cost per request at ${sizeLabel(large.size)} ÷ at ${sizeLabel(small.size)}`,
    "",
    "| mode | row | req/s small | req/s large | cost ratio | p50 small → large ms |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
  ];
  for (const mode of large.modes) {
    const before = small.modes.find((m) => m.mode === mode.mode);
    for (const r of mode.rows) {
      const b = before?.rows.find((x) => x.name === r.name);
      if (!b || r.rate) continue;
      out.push(
        `| ${mode.mode} | ${r.name} | ${b.result.rps.toFixed(0)} | ${r.result.rps.toFixed(0)} | ` +
          `${(b.result.rps / r.result.rps).toFixed(2)}× | ${ms(b.result.p50)} → ${ms(r.result.p50)} |`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}

export function percent(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

export function ms(x: number): string {
  return Number.isFinite(x) ? (x < 10 ? x.toFixed(1) : x.toFixed(0)) : "n/a";
}
