import { FixedWindows, type Window } from "./fixed-windows.ts";

/** What the shared counter answered a reservation. */
export interface Reservation {
  /** How many requests were reserved for this gateway (fewer than asked: the window's budget is spent). */
  granted: number;
  /** The window's reserved total across every gateway after this reservation. */
  reserved: number;
}

/** Reserves `count` requests of `key`'s budget for the window that starts at `windowStart`. */
export type Reserve = (key: string, windowStart: number, count: number) => Promise<Reservation>;

/** One key's window as this gateway sees it: what a hit answers. */
export interface SharedWindow extends Window {
  /** Whether the request just counted is within the budget (a refused one is not counted). */
  ok: boolean;
  /** What the client has left in the window, as far as this gateway knows (0 once refused). */
  remaining: number;
  /** Requests reserved for this gateway from the shared counter in the window. */
  granted: number;
  /** What the other gateways had reserved at the last answer. */
  others: number;
  /** A reservation is on its way: requests meanwhile count on credit, charged to the next reservations. */
  inFlight: boolean;
  /** The window's first reservation answered: until then requests count against the whole limit here. */
  answered: boolean;
  /** The shared counter has nothing left in this window: what was granted is all. */
  spent: boolean;
  /** The shared counter did not answer: this window counts in this gateway only (fail-open). */
  local: boolean;
}

/** How long, after a reservation failed, new windows count locally without asking (a store or broker that is down is not asked by every key). */
export const UNSHARED_BACKOFF_MS = 5_000;

/** The block a gateway reserves at a time: a tenth of the budget, so 10 reservations a window at most per gateway in steady use. */
export function blockOf(limit: number): number {
  return Math.max(1, Math.floor(limit / 10));
}

/**
 * How many requests `w` may have counted here: the limit while unshared or before the window's
 * first answer (a burst at a window's start is not refused for want of a round trip); once
 * spent, what was granted; otherwise what was granted and one block of credit.
 */
export function capOf(w: SharedWindow, limit: number, block: number): number {
  if (w.local || !w.answered) return limit;
  if (w.spent) return w.granted;
  return Math.min(limit, w.granted + block);
}

/** Whether `w` should reserve its next block: half of the current one used (or on credit already), and nothing on its way. */
export function wantsMore(w: SharedWindow, block: number): boolean {
  return !w.local && !w.spent && !w.inFlight && w.count >= w.granted - Math.floor(block / 2);
}

/** How many to ask for: what was counted on credit, and a fresh block. */
export function wantOf(w: SharedWindow, block: number): number {
  return Math.max(0, w.count - w.granted) + block;
}

/** The client's remaining budget as this gateway knows it, for `RateLimit-Remaining`. */
export function remainingOf(w: SharedWindow, limit: number): number {
  if (!w.ok) return 0;
  if (w.local) return Math.max(0, limit - w.count);
  if (w.spent) return Math.max(0, w.granted - w.count);
  return Math.max(0, limit - w.others - w.count);
}

/** Books a reservation's answer into `w`: the requests counted on credit are charged to it. */
export function land(w: SharedWindow, asked: number, answer: Reservation): void {
  w.inFlight = false;
  w.answered = true;
  w.granted += answer.granted;
  w.others = Math.max(0, answer.reserved - w.granted);
  if (answer.granted < asked) w.spent = true;
}

/**
 * Fixed one-minute windows whose budget every gateway draws from one shared counter
 * (docs/decisions/0049-shared-request-limits.md). Windows start on the clock's boundaries, so
 * all gateways count the same one. A gateway counts its requests here, synchronously, against
 * the blocks it reserved; it reserves the next block in the background once half of the current
 * one is used, so no request waits on the counter. A key's first requests in a window, before
 * its first reservation answers, count here against the whole limit and are charged to the
 * reservations when they land; later, one block of credit covers a reservation's round trip. When the counter cannot be reached, the window counts in this gateway only, as an
 * unshared limit does (`onUnreachable` logs and counts it).
 */
export class SharedWindows {
  private readonly windows: FixedWindows<SharedWindow>;
  readonly block: number;
  private downUntil = -Infinity;

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    private readonly reserve: Reserve,
    private readonly onUnreachable: (err: unknown, first: boolean) => void,
    capacity = 5_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.block = blockOf(limit);
    this.windows = new FixedWindows(windowMs, capacity, (now) => this.open(now));
  }

  private open(now: number): SharedWindow {
    return {
      openedAt: now - (now % this.windowMs),
      count: 0,
      ok: true,
      remaining: this.limit,
      granted: 0,
      others: 0,
      inFlight: false,
      answered: false,
      spent: false,
      local: now < this.downUntil,
    };
  }

  /** Counts one request of `key` at `now` if the budget allows it; the key's window after it. */
  hit(key: string, now: number): SharedWindow {
    const w = this.windows.hit(key, now);
    w.ok = w.count <= capOf(w, this.limit, this.block);
    if (!w.ok) w.count -= 1;
    if (wantsMore(w, this.block)) this.reserveFor(key, w);
    w.remaining = remainingOf(w, this.limit);
    return w;
  }

  /** `key`'s window at `now` when its budget is used up (a next hit would be refused), without counting or reordering anything. */
  full(key: string, now: number): SharedWindow | undefined {
    const w = this.windows.peek(key, now);
    return w !== undefined && w.count >= capOf(w, this.limit, this.block) ? w : undefined;
  }

  private reserveFor(key: string, w: SharedWindow): void {
    const asked = wantOf(w, this.block);
    w.inFlight = true;
    this.reserve(key, w.openedAt, asked).then(
      (answer) => {
        land(w, asked, answer);
        // Requests that came meanwhile may have used half of the new block already.
        if (wantsMore(w, this.block) && this.clock() < w.openedAt + this.windowMs) this.reserveFor(key, w);
      },
      (err: unknown) => {
        w.inFlight = false;
        w.local = true;
        const now = this.clock();
        const first = now >= this.downUntil;
        this.downUntil = now + UNSHARED_BACKOFF_MS;
        this.onUnreachable(err, first);
      },
    );
  }
}
