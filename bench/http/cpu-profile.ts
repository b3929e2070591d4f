/**
 * Reads a V8 `.cpuprofile` (`node --cpu-prof`) over a window of time and tells where the busy
 * samples went: self time per function, inclusive time per function (each function counted once
 * per sample however deep it recurses), and self time per origin (a package of node_modules,
 * node's internals, Payrail's bundle, V8's own entries).
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  share: number;
}

export interface ProfileSummary {
  busySamples: number;
  self: ProfileShare[];
  inclusive: ProfileShare[];
  origins: ProfileShare[];
}

/** Samples outside [fromUs, toUs] (the clock of `process.hrtime`, in µs) are left out; idle ones always. */
export function summariseProfile(file: string, fromUs: number, toUs: number): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const origins = new Map<string, number>();
  let busy = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t < fromUs || t > toUs) return;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === "(idle)") return;
    busy++;
    add(self, label(node));
    add(origins, originOf(node));
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (!seen.has(name)) add(inclusive, name);
      seen.add(name);
    }
  });
  const ranked = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, share: busy > 0 ? n / busy : 0 }));
  return { busySamples: busy, self: ranked(self), inclusive: ranked(inclusive).filter((e) => e.name !== "(root)"), origins: ranked(origins) };
}

function add(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (!url) return functionName || "(anonymous)";
  const file = url.replace(/^file:\/\//, "").replace(/^.*\/node_modules\//, "");
  return `${functionName || "(anonymous)"} ${file.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
}

function originOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:")) return "node internals";
  if (url.includes("/dist/")) return "payrail (bundle)";
  return url.replace(/^file:\/\//, "");
}
