import type { FlowVariants } from "./flow-variants.ts";
import type { FlowResult } from "./full-flow.ts";
import type { LoadResult } from "./load.ts";

/** The row names of a Payrail mode, in the order they run (Create last: it adds checkouts). */
export type RowName = "Get" | "Get at half max rate" | "List" | "Create" | "Create at half max rate";

export type ModeName = "embedded" | "rabbitmq" | "rabbitmq-mongo";

export const MODE_TITLES: Record<ModeName, string> = {
  embedded: "embedded: one process, in-process bus, embedded store",
  rabbitmq: "RabbitMQ: gateway process + domain process, embedded store",
  "rabbitmq-mongo": "RabbitMQ: gateway process + domain process, MongoDB-wire store",
};

export interface ProcessRss {
  name: string;
  /** Highest resident set size seen after a row, MB. */
  maxMb: number | null;
}

export interface MeasuredRow {
  name: string;
  result: LoadResult;
  /** Resident set size of each server process right after the row, MB. */
  rssMb: (number | null)[];
  /**
   * CPU time of the server processes together (not the load generator, not the broker) per
   * response over the measured part of the row, µs; null where /proc is missing. Steadier than
   * req/s on a shared machine: a busy neighbour slows a row down more than it makes it costlier.
   */
  cpuUsPerRequest: number | null;
  /** The same per server process (by name), measured over the row alone. */
  cpuUsByProcess?: Record<string, number>;
  /** Create rows: seconds after the row until its events were delivered (eventsCaughtUp), null when they never were. */
  eventsAfterS?: number | null;
  /** Create rows: the CPU per response counted until then, the events' delivery included. */
  cpuUsWithEvents?: number | null;
  connections: number;
  /** The rate-limited rows: the overall rate asked for. */
  rate?: number;
}

export interface ModeFigures {
  mode: ModeName;
  rows: MeasuredRow[];
  flow: FlowResult | null;
  /** Embedded only: the full flow with and without notices, and screening's CPU (flow-variants.ts). */
  flowVariants?: FlowVariants;
  startupS: number;
  processes: ProcessRss[];
  seedS: number;
}

/** The rows every ratio is taken against, measured at the start of each size. */
export interface ReferenceFigures {
  baseline: MeasuredRow;
  /** Null when no broker answered. */
  ceiling: MeasuredRow | null;
  /** The lean anchor's Get and Create (null when no Payrail mode ran). */
  anchor: AnchorFigures | null;
}

export interface AnchorFigures {
  get: MeasuredRow;
  create: MeasuredRow;
}

/** The anchor row a Payrail row is a share of: Get and Create have one, the others none. */
export function anchorOf(anchor: AnchorFigures | null, name: string): MeasuredRow | undefined {
  if (name === "Get") return anchor?.get;
  if (name === "Create") return anchor?.create;
  return undefined;
}

export interface SizeFigures {
  size: number;
  reference: ReferenceFigures;
  modes: ModeFigures[];
  /** Modes that could not be measured, and why. */
  failures: string[];
}

export function row(mode: ModeFigures | undefined, name: RowName): MeasuredRow | undefined {
  return mode?.rows.find((r) => r.name === name);
}

/** 1000 → "10^3"; other counts as digits. */
export function sizeLabel(size: number): string {
  const exponent = Math.log10(size);
  return Number.isInteger(exponent) && exponent >= 2 ? `10^${exponent}` : String(size);
}
