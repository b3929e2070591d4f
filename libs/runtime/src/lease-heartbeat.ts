/** Why a holder lost its lease. */
export type LeaseLossReason = "taken_over" | "expired" | "held_too_long" | "released";

/** The default error a holder gets from `check()` once its lease is lost. */
export class LeaseLost extends Error {
  constructor(readonly reason: LeaseLossReason) {
    super(`lease lost (${reason})`);
    this.name = "LeaseLost";
  }
}

export interface LeaseHeartbeatOptions {
  /** How far each renewal moves the lease's end. */
  leaseMs: number;
  /** The lease's end as claimed. */
  until: Date;
  /**
   * Moves the lease's end to `until` in one conditional write on the lease id: false when the
   * lease is no longer this holder's (taken over, or released).
   */
  renew(until: Date): Promise<boolean>;
  /** The clock the lease's ends are written with (the same as the claim's). */
  now?: () => Date;
  /** Between renewals; default a third of the lease, so two renewals may fail before it runs out. */
  renewEveryMs?: number;
  /**
   * A holder still working this long after the claim stops renewing and counts as lost: a hung
   * holder would otherwise keep its work from everyone for ever. Default 2 minutes.
   */
  maxHoldMs?: number;
  /** The error `check()` throws once the lease is lost (default `LeaseLost`). */
  lostError?: (reason: LeaseLossReason) => Error;
  /** Told once when the lease is lost while held (for the log). */
  onLost?: (reason: LeaseLossReason) => void;
  /** Told when a renewal write failed (store unavailable); the next one tries again. */
  onRenewError?: (err: unknown) => void;
  /**
   * Gives the lease back in one conditional write on the lease id (its work due again at once).
   * With it, the lease is one of the process's held leases that `releaseHeldLeases` hands back
   * when a stopping process cannot wait for its holder any longer.
   */
  release?: () => Promise<unknown>;
}

/** The leases this process holds that can be given back early, each with how to give it up. */
const held = new Set<{ lose(reason: LeaseLossReason): void; release(): Promise<unknown> }>();

/**
 * Gives back every lease this process still holds (those started with a `release`): each is
 * lost first ("released": its holder's next `check()` throws, and its writes, conditional on the
 * lease id, would find it gone anyway), then released, so another replica takes the work over at
 * once instead of after the lease runs out. For a process whose stop ran out of time: the work
 * is then done again elsewhere, as after a crash, under the same idempotency keys. Resolves with
 * how many leases it gave back.
 */
export async function releaseHeldLeases(): Promise<number> {
  const leases = [...held];
  held.clear();
  await Promise.all(
    leases.map(async (lease) => {
      lease.lose("released");
      await lease.release().catch(() => undefined); // the lease runs out instead
    }),
  );
  return leases.length;
}

/** A lease kept alive while its holder works. */
export interface LeaseHeartbeat {
  /** Aborted (with the lost error as reason) once the lease is lost. */
  readonly signal: AbortSignal;
  /**
   * Throws the lost error once the lease is lost, or once its last secured end has come (a
   * stalled event loop may not have renewed it): call before each provider call and each write.
   */
  check(): void;
  /** Stops renewing: the holder is done (it releases the lease itself, or lets it run out). */
  stop(): void;
}

/**
 * Keeps a lease alive with a renewal every `renewEveryMs` while its holder works, so leases can
 * be short (a killed holder's work is taken over within one lease) without a live but slow
 * holder losing its work to a second one. A renewal that finds the lease gone, or no renewal
 * succeeding before the lease's end, makes the lease lost: `check()` throws from then on, so
 * the holder stops before its next provider call or write (which stay conditional on the lease
 * id anyway). Renewals never overlap, and their timer does not keep the process alive.
 */
export function startLeaseHeartbeat(options: LeaseHeartbeatOptions): LeaseHeartbeat {
  const now = options.now ?? (() => new Date());
  const every = options.renewEveryMs ?? Math.max(1, Math.floor(options.leaseMs / 3));
  const maxHoldMs = options.maxHoldMs ?? 120_000;
  // The taker compares with its own clock: stop a little before the end rather than at it.
  const marginMs = Math.min(1_000, Math.floor(options.leaseMs / 10));
  const claimedAt = now().getTime();
  const controller = new AbortController();
  let heldUntil = options.until.getTime();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const lose = (reason: LeaseLossReason) => {
    if (controller.signal.aborted) return;
    clearTimeout(timer);
    controller.abort(options.lostError?.(reason) ?? new LeaseLost(reason));
    if (!stopped) options.onLost?.(reason);
  };
  const entry = options.release ? { lose, release: options.release } : undefined;
  if (entry) held.add(entry);
  const ranOut = () => now().getTime() >= heldUntil - marginMs;
  // Renewals start `every` apart, counted from the previous one's start, not its end: on a loaded
  // store a renewal can take seconds, and waiting a whole `every` after a slow one made the next
  // start too late to land before the lease's end (a live holder lost its lease to its own slow
  // writes). A renewal still running when the next is due is followed by it at once.
  const schedule = (delayMs: number) => {
    if (stopped || controller.signal.aborted) return;
    timer = setTimeout(() => void renewOnce(), delayMs);
    timer.unref();
  };
  const renewOnce = async () => {
    if (stopped || controller.signal.aborted) return;
    if (ranOut()) return lose("expired");
    const startedAt = now().getTime();
    if (startedAt - claimedAt >= maxHoldMs) return lose("held_too_long");
    const until = new Date(startedAt + options.leaseMs);
    try {
      if (!(await options.renew(until))) return lose("taken_over");
      heldUntil = until.getTime();
    } catch (err) {
      options.onRenewError?.(err);
    }
    schedule(Math.max(0, every - (now().getTime() - startedAt)));
  };
  schedule(every);

  return {
    signal: controller.signal,
    check() {
      if (!controller.signal.aborted && ranOut()) lose("expired");
      controller.signal.throwIfAborted();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      if (entry) held.delete(entry);
    },
  };
}

/** Runs `work` under a heartbeat on the lease, and stops the heartbeat however `work` ends. */
export async function withLeaseHeartbeat<T>(options: LeaseHeartbeatOptions, work: (lease: LeaseHeartbeat) => Promise<T>): Promise<T> {
  const lease = startLeaseHeartbeat(options);
  try {
    return await work(lease);
  } finally {
    lease.stop();
  }
}
