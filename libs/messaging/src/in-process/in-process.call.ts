import type { RpcReplyEnvelope } from "@payrail/contracts";
import { settleEnvelope } from "../rpc/dispatch-request.ts";
import { callStarted, recordCall } from "../rpc/rpc-observer.ts";
import { serviceTimeout } from "../rpc/rpc-errors.ts";

/**
 * One call of the in-process transport waiting for its reply: settled once, by the reply, its
 * timer or the transport's close, whichever comes first (later ones are dropped, as a late reply
 * over a broker is). A class rather than closures made per call: the bundle keeps function
 * names (esbuild's keepNames), which costs each named closure a defineProperty; and the
 * caller's RPC sample is recorded here, so the call needs no timing wrapper around its promise.
 */
export class InProcessCall {
  readonly promise: Promise<unknown>;
  private resolve!: (value: unknown) => void;
  private reject!: (err: Error) => void;
  private readonly timer: NodeJS.Timeout;
  private readonly started: number;

  constructor(
    readonly pattern: string,
    readonly timeoutMs: number,
    private readonly onReplayed: (() => void) | undefined,
    /** The transport's calls waiting for a reply: this one until it settles. */
    private readonly pending: Set<InProcessCall>,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    pending.add(this);
    this.timer = setTimeout(timeOut, timeoutMs, this);
    this.started = callStarted();
  }

  /** The server's reply; null when it skipped the request past its deadline (the timer answers). */
  replied(reply: RpcReplyEnvelope | null): void {
    if (reply === null) return;
    let value: unknown;
    try {
      value = settleEnvelope(reply, this.onReplayed);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    if (!this.pending.delete(this)) return; // already timed out or closed: drop the late reply
    clearTimeout(this.timer);
    recordCall(this.pattern, this.started, undefined);
    this.resolve(value);
  }

  fail(err: Error): void {
    if (!this.pending.delete(this)) return;
    clearTimeout(this.timer);
    recordCall(this.pattern, this.started, err);
    this.reject(err);
  }
}

/** A function, not a closure per call (see the class). */
function timeOut(call: InProcessCall): void {
  call.fail(serviceTimeout(call.pattern, call.timeoutMs));
}
