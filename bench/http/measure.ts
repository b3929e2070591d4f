/**
 * The rows run against one deployment: a single load row, or a Payrail mode's Get, (Get at
 * half max rate,) List, Create and full flow on seeded checkouts.
 */
import type { Deployment } from "./deployments.ts";
import type { AnchorFigures, MeasuredRow, ModeFigures, ModeName } from "./figures.ts";
import { runFullFlow, type FlowResult } from "./full-flow.ts";
import { createBodies, createCheckout, getCheckout, getPath, randomCheckoutPath, runLoad, type LoadResult, type LoadSettings, type RequestShape } from "./load.ts";
import { eventsCaughtUp } from "./events-caught-up.ts";
import { runPaced } from "./paced.ts";
import { ms } from "./table.ts";
import type { Seeded } from "./seed.ts";

export interface MeasureSettings {
  load: LoadSettings;
  flowClients: number;
  /** Keeps merchant_checkout_ids of this run's Create rows apart from any other's. */
  tag: string;
  log(message: string): void;
}

/** An autocannon row: as many requests as `connections` connections get answered. */
export function measureRow(s: MeasureSettings, d: Deployment, name: string, shape: RequestShape, caughtUp?: () => Promise<number | null>): Promise<MeasuredRow> {
  return record(s, d, name, (measuring) => runLoad(d.url, shape, s.load, measuring), undefined, caughtUp);
}

/**
 * One row, its CPU per response, and for a Create row (`caughtUp`) how long after it its events
 * took to be delivered and the CPU per response counted until then.
 */
async function record(
  s: MeasureSettings,
  d: Deployment,
  name: string,
  run: (measuring: () => void) => Promise<LoadResult>,
  rate?: number,
  caughtUp?: () => Promise<number | null>,
): Promise<MeasuredRow> {
  await idleBefore(s, d, name);
  let cpuAtStart: number | null = null;
  let eachAtStart: (number | null)[] = [];
  const result = await run(() => {
    // One read of each process: the total is their sum, so total and split start at the same instant.
    eachAtStart = d.processes.map((p) => p.cpuMs());
    cpuAtStart = eachAtStart.some((ms) => ms === null) ? null : eachAtStart.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
  });
  const cpuAtEnd = serversCpuMs(d);
  const cpuUsByProcess = splitCpu(d, eachAtStart, result.requests);
  const rssMb = d.processes.map((p) => p.rssMb());
  await settle(d.url);
  const perRequest = (end: number | null) => (cpuAtStart !== null && end !== null && result.requests > 0 ? ((end - cpuAtStart) * 1000) / result.requests : null);
  const cpuUsPerRequest = perRequest(cpuAtEnd);
  const offered = rate ? ` at ${rate}/s offered` : "";
  const split = cpuUsByProcess && d.processes.length > 1 ? ` (${Object.entries(cpuUsByProcess).map(([n, us]) => `${n} ${us.toFixed(0)}`).join(", ")})` : "";
  const cpu = cpuUsPerRequest === null ? "" : `, ${cpuUsPerRequest.toFixed(0)} µs CPU/req${split}`;
  s.log(`    ${name}${offered}: ${result.rps.toFixed(0)} req/s, p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, ${result.errors} errors${cpu}`);
  const row: MeasuredRow = { name, result, rssMb, cpuUsPerRequest, ...(cpuUsByProcess ? { cpuUsByProcess } : {}), connections: s.load.connections, ...(rate ? { rate } : {}) };
  if (caughtUp) {
    row.eventsAfterS = await caughtUp();
    row.cpuUsWithEvents = row.eventsAfterS === null ? null : perRequest(serversCpuMs(d));
    const after = row.eventsAfterS === null ? "not within 3 minutes" : `${row.eventsAfterS.toFixed(1)} s after the row`;
    const withEvents = row.cpuUsWithEvents == null ? "" : `; ${row.cpuUsWithEvents.toFixed(0)} µs CPU/req with them`;
    s.log(`      its events delivered ${after}${withEvents}`);
  }
  return row;
}

/**
 * Each server process's CPU per response since `atStart` (µs, by process name): how a request's
 * work splits between the gateway and the domain process, which sizes each role apart. Null when
 * one process's CPU is unknown.
 */
function splitCpu(d: Deployment, atStart: readonly (number | null)[], requests: number): Record<string, number> | null {
  if (requests <= 0) return null;
  const out: Record<string, number> = {};
  for (const [i, p] of d.processes.entries()) {
    const start = atStart[i];
    const end = p.cpuMs();
    if (start == null || end === null) return null;
    out[p.name] = ((end - start) * 1000) / requests;
  }
  return out;
}

/** The deployment's server processes' CPU time together, ms; null when one is unknown. */
export function serversCpuMs(d: Deployment): number | null {
  let total = 0;
  for (const p of d.processes) {
    const ms = p.cpuMs();
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

/** The lean anchor's two rows, on the same request shapes as Payrail's Get and Create. */
export async function measureAnchor(s: MeasureSettings, d: Deployment, seeded: Seeded, size: number): Promise<AnchorFigures> {
  await probe(`${d.url}/api/merchants/checkout/${seeded.sampleIds[0]}`, { "api-key": seeded.apiKey });
  const get = await measureRow(s, d, "lean anchor Get", getCheckout(seeded.apiKey, seeded.sampleIds));
  const create = await measureRow(s, d, "lean anchor Create", createCheckout(seeded.apiKey, `bench-${s.tag}-anchor-${size}`));
  return { get, create };
}

export async function measureMode(s: MeasureSettings, mode: ModeName, d: Deployment, seeded: Seeded, size: number): Promise<ModeFigures> {
  const key = { "api-key": seeded.apiKey };
  await probe(`${d.url}/api/merchants/checkout/${seeded.sampleIds[0]}`, key);
  const rows: MeasuredRow[] = [];
  const get = await measureRow(s, d, "Get", getCheckout(seeded.apiKey, seeded.sampleIds));
  rows.push(get);
  if (mode !== "embedded" && get.result.rps >= 2) {
    const half = Math.max(1, Math.round(get.result.rps / 2));
    const paced = { headers: key, nextPath: randomCheckoutPath(seeded.sampleIds) };
    rows.push(await record(s, d, "Get at half max rate", (measuring) => runPaced(d.url, paced, half, s.load, measuring), half));
  }
  rows.push(await measureRow(s, d, "List", getPath("/api/merchants/checkout?limit=20", key)));
  // Create last: it adds checkouts, and the rows before it measure the seeded size.
  const tag = `bench-${s.tag}-${mode}-${size}`;
  const caughtUp = (row: string) => () => eventsCaughtUp(d.url, seeded.apiKey, `${tag}-${row}`);
  const create = await measureRow(s, d, "Create", createCheckout(seeded.apiKey, tag), caughtUp("max"));
  rows.push(create);
  if (mode !== "embedded" && create.result.rps >= 2) {
    const half = Math.max(1, Math.round(create.result.rps / 2));
    const paced = { headers: { ...key, "content-type": "application/json" }, nextPath: () => "/api/merchants/checkout", nextBody: createBodies(`${tag}-paced`) };
    rows.push(await record(s, d, "Create at half max rate", (measuring) => runPaced(d.url, paced, half, s.load, measuring), half, caughtUp("half")));
  }

  const flow = await measureFlow(s, d, seeded.apiKey, "full flow");
  const processes = d.processes.map((p, i) => ({
    name: p.name,
    maxMb: Math.max(...rows.map((r) => r.rssMb[i] ?? 0), p.rssMb() ?? 0) || null,
  }));
  return { mode, rows, flow, startupS: d.startupS, processes, seedS: seeded.seconds };
}

/**
 * The full flow once idle: its warm-up, then `durationS` of flows with the server processes' CPU
 * per completed flow. `completed` hears each measured flow's checkout id.
 */
export async function measureFlow(
  s: MeasureSettings,
  d: Deployment,
  apiKey: string,
  name: string,
  completed?: (checkoutId: string) => void,
  settled = false,
): Promise<FlowResult> {
  await idleBefore(s, d, name);
  if (s.load.warmupS > 0) await runFullFlow(d.url, apiKey, s.flowClients, s.load.warmupS);
  const cpuAtStart = serversCpuMs(d);
  const flow = await runFullFlow(d.url, apiKey, s.flowClients, s.load.durationS, completed);
  const cpuAtEnd = serversCpuMs(d);
  if (cpuAtStart !== null && cpuAtEnd !== null && flow.flows > 0) flow.cpuMsPerFlow = (cpuAtEnd - cpuAtStart) / flow.flows;
  const cpu = flow.cpuMsPerFlow === undefined ? "" : `, ${flow.cpuMsPerFlow.toFixed(2)} ms CPU/flow`;
  s.log(`    ${name}: ${flow.flowsPerS.toFixed(1)} flows/s, p50 ${ms(flow.p50)} ms, p99 ${ms(flow.p99)} ms, ${flow.errors} failed${cpu}`);
  if (flow.firstError) s.log(`      first failure: ${flow.firstError}`);
  // `settled`: also the CPU until the work the flows queued (events relayed, notices sent) is done.
  if (settled && cpuAtStart !== null && flow.flows > 0) {
    const waitedS = await untilIdle(d);
    const cpuIdle = serversCpuMs(d);
    if (cpuIdle !== null) flow.cpuMsPerFlowSettled = (cpuIdle - cpuAtStart) / flow.flows;
    s.log(`      idle ${waitedS.toFixed(1)} s after it; ${flow.cpuMsPerFlowSettled?.toFixed(2) ?? "?"} ms CPU/flow until then`);
  }
  return flow;
}

/**
 * Waits for the requests a row left queued (a slow store can hold seconds of them): /readyz
 * goes through the same bus and queues, so its answer comes after theirs.
 */
async function settle(url: string): Promise<void> {
  const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(120_000) }).catch(() => null);
  await res?.arrayBuffer();
}

const IDLE_POLL_MS = 250;
/** Below a tenth of one CPU, the processes are idle. */
const IDLE_CPU_SHARE = 0.1;
const IDLE_WAIT_MAX_MS = 60_000;

/**
 * Each row measures its own load: a row that saturates Create leaves its events to relay and
 * its subscribers' work behind (seconds of it in RabbitMQ mode), and the row after it, the
 * paced one above all, would otherwise measure that backlog draining.
 */
async function idleBefore(s: MeasureSettings, d: Deployment, row: string): Promise<void> {
  const waitedS = await untilIdle(d);
  if (waitedS > 0.5) s.log(`    idle ${waitedS.toFixed(1)} s before ${row} (the rows before it: events relayed and handled)`);
}

/** Waits until the deployment's processes are idle, up to a minute; answers the seconds waited. */
export async function untilIdle(d: Deployment): Promise<number> {
  const started = performance.now();
  let before = serversCpuMs(d);
  while (before !== null && performance.now() - started < IDLE_WAIT_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
    const now = serversCpuMs(d);
    if (now === null || now - before < IDLE_POLL_MS * IDLE_CPU_SHARE) break;
    before = now;
  }
  return (performance.now() - started) / 1000;
}

/** One probe before the load, so that a wrong key or id fails with a message, not a row of errors. */
async function probe(url: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`probe ${url}: ${res.status} ${await res.text()}`);
}
