/**
 * The issue's targets, checked against one run's figures (ratios within the run, never timed
 * tests). A target holds when it holds at every size measured; the 10^6 targets need 10^6.
 */
import { anchorOf, row, sizeLabel, type ModeFigures, type ModeName, type RowName, type SizeFigures } from "./figures.ts";
import { noticesShare, screeningShare } from "./flow-variants.ts";
import { ms, percent } from "./table.ts";

interface Finding {
  where: string;
  figure: string;
  ok: boolean;
}

const BIG = 1_000_000;
const SMALL = 1_000;

export function renderTargets(sizes: SizeFigures[]): string {
  const out = ["## Targets", ""];
  const add = (target: string, findings: Finding[]) => out.push(verdict(target, findings));
  const modeAt = (f: SizeFigures, m: ModeName) => f.modes.find((x) => x.mode === m);
  const each = (m: ModeName, fn: (f: SizeFigures, mode: ModeFigures) => Finding | null): Finding[] =>
    sizes.flatMap((f) => {
      const mode = modeAt(f, m);
      const found = mode ? fn(f, mode) : null;
      return found ? [found] : [];
    });

  const ratioTo = (m: ModeName, name: RowName, min: number) =>
    each(m, (f, mode) => {
      const r = row(mode, name);
      const reference = m === "embedded" ? f.reference.baseline : f.reference.ceiling;
      if (!r || !reference) return null;
      const x = r.result.rps / reference.result.rps;
      return { where: sizeLabel(f.size), figure: percent(x), ok: x >= min };
    });

  const shareOfAnchor = (name: "Get" | "Create", min: number) =>
    each("embedded", (f, mode) => {
      const r = row(mode, name);
      const a = anchorOf(f.reference.anchor, name);
      if (!r || !a) return null;
      const x = r.result.rps / a.result.rps;
      return { where: sizeLabel(f.size), figure: percent(x), ok: x >= min };
    });
  add("Embedded Get ≥ 60% of the lean anchor's Get", shareOfAnchor("Get", 0.6));
  add("Embedded Get ≥ 25% of bare fastify", ratioTo("embedded", "Get", 0.25));
  add(
    "Embedded Create ≥ 80% of the lean anchor's Create, with its events delivered",
    // The row's creates over its own time plus the wait after it until their events were all in
    // the webhooks' event log: a relay that falls behind during the row costs the rate it reached.
    each("embedded", (f, mode) => {
      const r = row(mode, "Create");
      const a = anchorOf(f.reference.anchor, "Create");
      if (!r || !a || r.eventsAfterS === undefined) return null;
      const where = sizeLabel(f.size);
      if (r.eventsAfterS === null) return { where, figure: "events not delivered within 3 minutes", ok: false };
      const x = r.result.requests / (r.result.requests / r.result.rps + r.eventsAfterS) / a.result.rps;
      return { where, figure: `${percent(x)} (${percent(r.result.rps / a.result.rps)} during the row, its events ${r.eventsAfterS.toFixed(1)} s after it)`, ok: x >= 0.8 };
    }),
  );
  add(
    "Embedded RSS < 150 MB after the 100-connection rows",
    each("embedded", (f, mode) => {
      const mb = mode.processes[0]?.maxMb;
      return mb != null ? { where: sizeLabel(f.size), figure: `${mb.toFixed(0)} MB`, ok: mb < 150 } : null;
    }),
  );
  const small = sizes.find((f) => f.size === SMALL);
  const big = sizes.find((f) => f.size === BIG);
  for (const m of ["embedded", "rabbitmq"] as const) {
    for (const name of ["Get", "List", "Create"] as const) {
      const a = row(small && modeAt(small, m), name);
      const b = row(big && modeAt(big, m), name);
      const findings = a && b ? [{ where: "10^6 ÷ 10^3", figure: `${(a.result.rps / b.result.rps).toFixed(2)}×`, ok: a.result.rps / b.result.rps <= 1.5 }] : [];
      add(`${m === "embedded" ? "Embedded" : "RabbitMQ mode"} ${name}: cost at 10^6 within 1.5× of 10^3`, findings);
    }
  }
  const bigEmbedded = big && modeAt(big, "embedded");
  add(
    "Embedded start-up < 3 s at 10^6",
    bigEmbedded ? [{ where: "10^6", figure: `${bigEmbedded.startupS.toFixed(2)} s`, ok: bigEmbedded.startupS < 3 }] : [],
  );

  for (const m of ["rabbitmq", "rabbitmq-mongo"] as const) {
    if (!sizes.some((f) => modeAt(f, m))) continue;
    const title = m === "rabbitmq" ? "RabbitMQ mode" : "RabbitMQ mode on the MongoDB-wire store";
    add(`${title}: Create ≥ 60% of the RPC → echo ceiling`, ratioTo(m, "Create", 0.6));
    add(`${title}: Get ≥ 80% of the RPC → echo ceiling`, ratioTo(m, "Get", 0.8));
    for (const name of ["Create at half max rate", "Get at half max rate"] as const) {
      add(
        `${title}: ${name.replace(" at half max rate", "")} p99 < 25 ms at half its maximum rate, evenly paced`,
        each(m, (f, mode) => {
          const r = row(mode, name);
          return r ? { where: sizeLabel(f.size), figure: `${ms(r.result.p99)} ms`, ok: r.result.p99 < 25 } : null;
        }),
      );
    }
    add(
      `${title}: zero errors`,
      each(m, (f, mode) => {
        const errors = mode.rows.reduce((sum, r) => sum + r.result.errors, 0) + (mode.flow?.errors ?? 0);
        return { where: sizeLabel(f.size), figure: String(errors), ok: errors === 0 };
      }),
    );
  }
  add(
    "Full payment flow ≥ 300 flows/s embedded",
    each("embedded", (f, mode) =>
      mode.flow ? { where: sizeLabel(f.size), figure: `${mode.flow.flowsPerS.toFixed(0)}/s`, ok: mode.flow.flowsPerS >= 300 } : null,
    ),
  );
  add(
    "Notices add at most 15% to the CPU of a full flow (embedded, notices off and on)",
    each("embedded", (f, mode) => {
      const x = mode.flowVariants ? noticesShare(mode.flowVariants) : null;
      return x === null ? null : { where: sizeLabel(f.size), figure: `+${percent(x)}`, ok: x <= 0.15 };
    }),
  );
  add(
    "Screening adds at most 10% to the CPU of a first charge (embedded full flow, screening replayed on its store)",
    each("embedded", (f, mode) => {
      const x = mode.flowVariants ? screeningShare(mode.flowVariants) : null;
      return x === null ? null : { where: sizeLabel(f.size), figure: `+${percent(x)}`, ok: x <= 0.1 };
    }),
  );
  return `${out.join("\n")}\n`;
}

function verdict(target: string, findings: Finding[]): string {
  if (findings.length === 0) return `- **not measured**: ${target}`;
  const status = findings.every((f) => f.ok) ? "met" : "MISSED";
  return `- **${status}**: ${target}: ${findings.map((f) => `${f.where} ${f.figure}${f.ok ? "" : " ✗"}`).join(", ")}`;
}
