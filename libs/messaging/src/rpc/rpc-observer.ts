import { AppError } from "@payrail/contracts";

/** One RPC call as seen by its caller (`client`) or by the service that handled it (`server`). */
export interface RpcSample {
  side: "client" | "server";
  /** The operation's pattern, `<service>.<verbNoun>`: a fixed set. */
  operation: string;
  /** `ok`, or the error code it ended with (from the registry: a fixed set too). */
  outcome: string;
  seconds: number;
}
export type RpcObserver = (sample: RpcSample) => void;

/*
 * Process-wide, like the metrics registry that reads it: every transport of the process (the
 * gateway's, the services') reports here, so metrics need no handle on each transport. With
 * no observer a call costs one size check.
 */
const observers = new Set<RpcObserver>();

/** Calls `observer` for every RPC call and handling in this process; returns its removal. */
export function observeRpc(observer: RpcObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

export function recordRpc(sample: RpcSample): void {
  for (const observer of observers) observer(sample);
}

export function hasRpcObservers(): boolean {
  return observers.size > 0;
}

/**
 * A caller's view of a call: its duration and how it ended (its error code, if any). With no
 * observer the call's own promise is handed back, not wrapped (every call pays for a wrapper).
 */
export function timedCall<T>(operation: string, call: Promise<T>): Promise<T> {
  return observers.size === 0 ? call : observed(operation, call);
}

async function observed<T>(operation: string, call: Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const value = await call;
    recordCall(operation, started, undefined);
    return value;
  } catch (err) {
    recordCall(operation, started, err);
    throw err;
  }
}

/** When a call starts, for `recordCall`: 0 (no clock read) while nobody observes. */
export function callStarted(): number {
  return observers.size === 0 ? 0 : performance.now();
}

/** A caller's sample of a call that started at `started` (`callStarted`) and ended now, with `err` or not. */
export function recordCall(operation: string, started: number, err: unknown): void {
  // started 0: nobody observed when the call began (an observer added since sees its next calls).
  if (observers.size === 0 || started === 0) return;
  const outcome = err === undefined ? "ok" : err instanceof AppError ? err.code : "internal_error";
  recordRpc({ side: "client", operation, outcome, seconds: (performance.now() - started) / 1000 });
}
