/**
 * Open-loop load at a fixed rate, for "p99 at half the maximum rate". autocannon's rate limit
 * sends each second's quota as fast as it can and then waits for the next second, so half the
 * rate on average is the full rate for half of each second, and its p99 is the saturated p99.
 * Here requests are started evenly (every tick, as many as are due) and each latency counts from
 * when the request was due, not when a socket became free, so queueing in the client counts too
 * (no coordinated omission).
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import type { LoadResult, LoadSettings } from "./load.ts";
import { percentile } from "./percentile.ts";

const TICK_MS = 2;
const TIMEOUT_MS = 10_000;

export interface PacedRequests {
  headers: Record<string, string>;
  /** The path of the next request: a GET, or a POST of `nextBody()` when that is given. */
  nextPath(): string;
  nextBody?(): string;
}

/** `measuring` is called when the warm-up ends and the measured part starts. */
export async function runPaced(url: string, requests: PacedRequests, rate: number, settings: LoadSettings, measuring?: () => void): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: settings.connections });
  try {
    if (settings.warmupS > 0) await pace(url, agent, requests, rate, settings.warmupS);
    measuring?.();
    return await pace(url, agent, requests, rate, settings.durationS);
  } finally {
    agent.destroy();
  }
}

async function pace(url: string, agent: Agent, requests: PacedRequests, rate: number, durationS: number): Promise<LoadResult> {
  const { hostname, port } = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const pending: Promise<void>[] = [];
  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const done = (ok: boolean) => {
        if (ok) latencies.push(performance.now() - dueAt);
        else errors += 1;
        resolve();
      };
      const body = requests.nextBody?.();
      const method = body === undefined ? "GET" : "POST";
      const req = request({ agent, hostname, port, method, path: requests.nextPath(), headers: requests.headers }, (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300));
        res.on("error", () => done(false));
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error("timeout")));
      req.on("error", () => done(false));
      req.end(body);
    });

  const start = performance.now();
  const total = Math.round(rate * durationS);
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
    for (; sent < due; sent++) pending.push(send(start + (sent / rate) * 1000));
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: (latencies.length + errors) / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, requests: latencies.length + errors };
}
