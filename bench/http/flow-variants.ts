/**
 * The full flow's cost with and without the fourth wave's additions, each pair in the same run
 * (docs/performance.md, "Notices and screening in a full flow"): embedded Payrail with every
 * service and without the notices service (bench/http/servers/payrail-variant.server.ts), then
 * fraud screening's CPU per first charge replayed on the store the flows left (screening-cost.ts).
 */
import type { Deployment, PayrailSettings } from "./deployments.ts";
import { startEmbeddedVariant } from "./deployments.ts";
import type { FlowResult } from "./full-flow.ts";
import { measureFlow, type MeasureSettings } from "./measure.ts";
import { screeningCost, type ScreeningCost } from "./screening-cost.ts";

export interface FlowVariants {
  /** Every service (through the variant server, so that it runs as the next one does). */
  noticesOn: FlowResult;
  /** Every service but notices. */
  noticesOff: FlowResult;
  /** Screening replayed for the first charges of `noticesOn`'s flows. */
  screening: ScreeningCost | null;
}

type WithDeployment = <T>(start: () => Promise<Deployment>, what: string, fn: (d: Deployment) => Promise<T>) => Promise<T>;

export async function measureFlowVariants(s: MeasureSettings, settings: PayrailSettings, apiKey: string, withDeployment: WithDeployment): Promise<FlowVariants> {
  const ids: string[] = [];
  const noticesOn = await withDeployment(() => startEmbeddedVariant(settings, null), "embedded, every service (variant server)", (d) =>
    measureFlow(s, d, apiKey, "full flow, notices on", (id) => ids.push(id), true),
  );
  const noticesOff = await withDeployment(() => startEmbeddedVariant(settings, "notices"), "embedded without notices (variant server)", (d) =>
    measureFlow(s, d, apiKey, "full flow, notices off", undefined, true),
  );
  let screening: ScreeningCost | null = null;
  if (ids.length > 0) {
    screening = await screeningCost(settings.storeEnv, ids);
    s.log(`    screening replayed for ${screening.debits} first charges: ${screening.cpuMsPerDebit.toFixed(3)} ms CPU each, ${screening.flagged} flagged`);
  }
  return { noticesOn, noticesOff, screening };
}

/**
 * A flow's CPU with what it left to do after the row: the notices of a row's flows are written
 * and sent by a worker, some after the row ended, and would otherwise be missed.
 */
export function settledCpu(f: FlowResult): number | undefined {
  return f.cpuMsPerFlowSettled ?? f.cpuMsPerFlow;
}

/** Notices' share of a flow's CPU, each counted until idle: (on − off) ÷ off; null without both figures. */
export function noticesShare(v: FlowVariants): number | null {
  const on = settledCpu(v.noticesOn);
  const off = settledCpu(v.noticesOff);
  return on !== undefined && off !== undefined && off > 0 ? (on - off) / off : null;
}

/** Screening's share of a first charge's flow: screening ÷ (the flow's CPU − screening); null without both figures. */
export function screeningShare(v: FlowVariants): number | null {
  const flow = settledCpu(v.noticesOn);
  const screen = v.screening?.cpuMsPerDebit;
  return flow !== undefined && screen !== undefined && Number.isFinite(screen) && flow > screen ? screen / (flow - screen) : null;
}
