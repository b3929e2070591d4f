import type { DeadLetteredEvent } from "../events.port.ts";
import type { EventOutcome } from "../events/handle-event.ts";
import { idAndType } from "../events/id-and-type.ts";
import { topicMatcher } from "../events/topic-pattern.ts";
import type { Handoff } from "./handoff.ts";

/** An event waiting in a queue: its JSON as published and the attempt its next delivery is. */
export interface QueuedEvent {
  body: string;
  attempt: number;
  /** Its id, which the queue holds once at most (a replay or a reload after a restart). */
  eventId?: string | undefined;
  /** Epoch ms of its first failure, once it failed. */
  firstFailedAt?: number | undefined;
  /** Set when it was handed to the consumers with no copy in the durable queues (handoff.ts). */
  handoff?: Handoff | undefined;
}

/**
 * What a consumer reports for one delivery: the shared outcome, or `requeue` when its
 * transport closed before the handler finished (as a broker requeues unacked messages).
 */
export type DeliveryOutcome = EventOutcome | { kind: "requeue" };

/**
 * Events a consumed queue holds ready before a publish into it waits, and the depth at which
 * the waiting publishes go on: the relays publish, and a backlog drained at their pace would
 * otherwise pile up in memory ahead of slower subscribers (a broker's flow control, here).
 */
export const HIGH_WATER = 1_000;
const LOW_WATER = HIGH_WATER / 2;

/** One subscribe() of one transport, consuming the queue. */
export interface InProcessEventConsumer {
  readonly prefetch: number;
  /** Runs the handler (and keeps its outcome in the durable queues, if any); never rejects. */
  deliver(message: QueuedEvent): Promise<DeliveryOutcome>;
}

/**
 * What a durable queue is on the broker, for one subscribing service in one process: it is
 * created by the service's first subscribe() (or, with durable queues, from the bindings kept
 * in the store) and outlives its consumers, so events published while the service is down wait
 * here. Consumers (replicas) take events round-robin, each holding at most `prefetch` at once.
 * Deliveries always start from a later turn of the event loop, never inside publish(). Failed
 * attempts come back after the outcome's delay; given-up events stay in `deadLetters`.
 */
export class InProcessEventQueue {
  readonly deadLetters: DeadLetteredEvent[] = [];
  private readonly bindings = new Set<string>();
  private boundTo = topicMatcher(this.bindings);
  private readonly ready: QueuedEvent[] = [];
  /** Ids of the events held (ready, in flight or waiting for a retry). */
  private readonly held = new Set<string>();
  private consumers: { consumer: InProcessEventConsumer; unacked: number }[] = [];
  private cursor = 0;
  private scheduled = false;
  /** Publishes waiting for room (see HIGH_WATER). */
  private waiting: (() => void)[] = [];

  constructor(readonly service: string) {}

  bind(patterns: readonly string[]): void {
    for (const pattern of patterns) this.bindings.add(pattern);
    this.boundTo = topicMatcher(this.bindings);
  }

  isBoundTo(type: string): boolean {
    return this.boundTo(type);
  }

  /** A consumer takes from it now: its service has subscribed in this process. */
  consumed(): boolean {
    return this.consumers.length > 0;
  }

  enqueue(message: QueuedEvent): void {
    if (message.eventId !== undefined) this.held.add(message.eventId);
    this.ready.push(message);
    this.schedule();
  }

  /** Enqueues unless the queue already holds this event (a reload or replay of one in flight). */
  enqueueIfAbsent(message: QueuedEvent & { eventId: string }): void {
    if (!this.held.has(message.eventId)) this.enqueue(message);
  }

  /**
   * Resolves once the queue has room for more events, or at once (undefined) when it has: a
   * queue no consumer takes from never makes a publish wait, since nothing would empty it.
   */
  room(): Promise<void> | undefined {
    if (this.ready.length < HIGH_WATER || this.consumers.length === 0) return undefined;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  addConsumer(consumer: InProcessEventConsumer): void {
    this.consumers.push({ consumer, unacked: 0 });
    this.schedule();
  }

  removeConsumer(consumer: InProcessEventConsumer): void {
    this.consumers = this.consumers.filter((entry) => entry.consumer !== consumer);
    this.wake();
  }

  private wake(): void {
    if (this.waiting.length === 0 || (this.ready.length > LOW_WATER && this.consumers.length > 0)) return;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.ready.length > 0) {
      const taker = this.nextFree();
      if (!taker) break;
      const message = this.ready.shift() as QueuedEvent;
      taker.unacked += 1;
      void taker.consumer.deliver(message).then((outcome) => {
        taker.unacked -= 1;
        this.settle(message, outcome);
        this.schedule();
      });
    }
    this.wake();
  }

  /** The next consumer, round-robin, with room in its prefetch. */
  private nextFree(): { consumer: InProcessEventConsumer; unacked: number } | undefined {
    const count = this.consumers.length;
    for (let i = 0; i < count; i++) {
      const index = (this.cursor + i) % count;
      const entry = this.consumers[index];
      if (entry && entry.unacked < entry.consumer.prefetch) {
        this.cursor = index + 1;
        return entry;
      }
    }
    return undefined;
  }

  private settle(message: QueuedEvent, outcome: DeliveryOutcome): void {
    if (outcome.kind === "requeue") this.ready.unshift(message);
    if (outcome.kind === "retry") {
      const again = { ...message, attempt: message.attempt + 1, firstFailedAt: outcome.firstFailedAt };
      // unref: a pending retry must not keep a stopping process alive (with durable queues the
      // store keeps it; without, the bus is memory only).
      setTimeout(() => {
        this.ready.push(again);
        this.schedule();
      }, outcome.delayMs).unref();
      return;
    }
    if (outcome.kind === "dead") {
      this.deadLetters.push({ ...idAndType(message.body), reason: outcome.reason, cause: outcome.cause, attempts: message.attempt, body: message.body });
    }
    if ((outcome.kind === "ack" || outcome.kind === "dead") && message.eventId !== undefined) this.held.delete(message.eventId);
  }
}
