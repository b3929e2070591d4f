import type { DomainEvent } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { EventHandler, EventStats, SubscribeOptions } from "../events.port.ts";
import { encodeEvent } from "../events/encode-event.ts";
import { EventCounters } from "../events/event-counters.ts";
import { handleEvent, type EventOutcome } from "../events/handle-event.ts";
import { jittered, stepAfter, type RetryPolicy } from "../events/retry-policy.ts";
import { createSubscription, Subscriptions, type Subscription } from "../events/subscription.ts";
import { InFlight } from "../rpc/in-flight.ts";
import { Abandonable } from "./abandonable.ts";
import { Handoff, HANDOFF_WAIT_MS } from "./handoff.ts";
import type { InProcessBus } from "./in-process.bus.ts";
import { idAndType } from "../events/id-and-type.ts";
import type { DeliveryOutcome, InProcessEventConsumer, InProcessEventQueue, QueuedEvent } from "./in-process-event.queue.ts";

/**
 * The event side of one in-process transport: publishes into the bus's queues and consumes
 * them through the same `handleEvent` as the RabbitMQ subscriber, so an event is validated,
 * retried and dead-lettered alike on both. Events go through JSON like on the wire.
 *
 * With the bus's stores (`useEventStores`, embedded mode), `publish` resolves only once every
 * bound service handled the event or has a copy of it in the store, and a copy is removed only
 * once its service handled or dead-lettered the event: the outbox relay marks an event sent
 * when publish resolves, so a crash between publish and handling never loses it (it is still in
 * its outbox, or its copy is delivered at the next start). A service that consumes now gets the
 * event straight, and a copy is written only if its handler fails or is still running after
 * HANDOFF_WAIT_MS (handoff.ts): an insert and a delete for every service and event would be
 * four more writes to a checkout's create with its events (7 instead of 3), and 24 to a full flow's 40.
 */
export class InProcessEvents {
  private readonly counters = new EventCounters();
  private readonly subscriptions = new Subscriptions();
  private readonly consuming: { queue: InProcessEventQueue; consumer: InProcessEventConsumer }[] = [];
  private readonly replayTimers: NodeJS.Timeout[] = [];
  /** Services whose replay poll is under way: one at a time, so a slow store sends nothing twice. */
  private readonly replaying = new Set<string>();
  private readonly running = new InFlight();
  private closed = false;
  /** Running handlers close() gives up on: their events are requeued. */
  private readonly abandonable = new Abandonable<DeliveryOutcome>({ kind: "requeue" });

  constructor(
    private readonly bus: InProcessBus,
    private readonly logger: Logger,
    private readonly retry: Partial<RetryPolicy> = {},
    private readonly handoffWaitMs = HANDOFF_WAIT_MS,
  ) {}

  /**
   * "Confirmed" once in every bound queue: in the store when the bus has one, else memory only.
   * A queue that holds many events ahead of its consumers makes the publish wait for room.
   */
  async publish(event: DomainEvent): Promise<void> {
    const body = encodeEvent(event);
    const queues = this.bus.eventQueuesBoundTo(event.type);
    for (const queue of queues) {
      // Only a full queue makes the publish wait; an await of nothing would still cost it a turn.
      const room = queue.room();
      if (room) await room;
    }
    const durable = this.bus.stores?.queues;
    const handed = durable ? queues.filter((q) => q.consumed()) : [];
    // Stored first for the services that have not subscribed (again, since a restart): nobody could
    // handle it now. Without durable queues nothing is handed over: every queue takes it this way.
    const kept = queues.filter((q) => !handed.includes(q));
    if (durable && kept.length > 0) await durable.enqueue(kept.map((q) => q.service), event.id, body);
    for (const queue of kept) queue.enqueue({ body, attempt: 1, eventId: event.id });
    if (durable && handed.length > 0) {
      const handoffs = handed.map((queue) => {
        const handoff = new Handoff(() => durable.enqueue([queue.service], event.id, body), this.handoffWaitMs);
        queue.enqueue({ body, attempt: 1, eventId: event.id, handoff });
        return handoff.settled;
      });
      await (handoffs.length === 1 ? handoffs[0] : Promise.all(handoffs));
    }
    this.counters.count("published", event.type);
  }

  async subscribe(service: string, patterns: readonly string[], handler: EventHandler, options?: SubscribeOptions): Promise<void> {
    const subscription = createSubscription(service, patterns, handler, options, this.retry);
    this.subscriptions.add(subscription);
    const queue = this.bus.eventQueue(service);
    queue.bind(subscription.patterns);
    const durable = this.bus.stores?.queues;
    if (durable) {
      await durable.bind(service, subscription.patterns);
      // What a crash left unhandled (or a restart found waiting): delivered again, its retry window kept.
      for (const kept of await durable.pending(service)) queue.enqueueIfAbsent(kept);
    }
    const consumer: InProcessEventConsumer = {
      prefetch: subscription.prefetch,
      deliver: (message) => {
        const handled = handleEvent(subscription, message.body, message, this.logger, this.counters).then((outcome) => this.keep(subscription, message, outcome));
        const delivered = this.running.track(this.abandonable.wrap(handled));
        const { handoff } = message;
        if (!handoff) return delivered;
        return delivered.then((outcome) => {
          // Given up at close while its handler ran: neither handled nor kept, so it stays in its outbox.
          if (outcome.kind === "requeue") handoff.fail(new Error(`${service} closed before it handled the event`));
          return outcome;
        });
      },
    };
    this.consuming.push({ queue, consumer });
    queue.addConsumer(consumer);
    // Replays asked for while the process was down (the CLI needs the embedded store to itself) go at
    // once. A poll is tracked like a handler, so close() waits for it before the store closes (a CLI
    // command that stops its services at once met "embedded store is closed" here), and none starts after.
    const poll = () => {
      if (!this.closed) void this.running.track(this.replay(subscription, queue));
    };
    setImmediate(poll);
    const timer = setInterval(poll, subscription.replayPollMs);
    timer.unref();
    this.replayTimers.push(timer);
  }

  stats(): EventStats {
    return this.counters.snapshot();
  }

  /** Stops consuming, lets running handlers finish (up to `graceMs`), requeues the rest. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    for (const timer of this.replayTimers.splice(0)) clearInterval(timer);
    for (const { queue, consumer } of this.consuming.splice(0)) queue.removeConsumer(consumer);
    await this.running.drain(graceMs);
    this.abandonable.abandonAll();
  }

  /**
   * Writes an outcome to the stores before the queue acts on it: handled → forgotten; failed →
   * its attempt and first failure kept; dead → recorded as a dead letter, then forgotten. A
   * dead letter the store cannot take (it is away) is retried instead, and decided again. An
   * event handed over with no copy (handoff.ts) has a copy written only when it failed.
   */
  private async keep(subscription: Subscription, message: QueuedEvent, outcome: EventOutcome): Promise<EventOutcome> {
    const { stores } = this.bus;
    const { service } = subscription;
    const eventId = message.eventId ?? idAndType(message.body).id;
    try {
      if (outcome.kind === "dead" && stores) {
        const { type } = idAndType(message.body);
        await stores.deadLetters.put({ service, eventId, type, reason: outcome.reason, attempts: message.attempt, body: message.body });
      }
      const queues = stores?.queues;
      if (!queues || eventId === undefined) return outcome;
      const { handoff } = message;
      if (handoff && !handoff.kept) {
        // Handed over with no copy: a handled or dead event leaves nothing to remove; a retried one
        // is kept, with its next attempt and first failure, before its publish resolves.
        if (outcome.kind !== "retry") return (handoff.done(), outcome);
        const retry = { attempt: message.attempt + 1, firstFailedAt: outcome.firstFailedAt };
        await handoff.keep(() => queues.enqueue([service], eventId, message.body, retry));
        return outcome;
      }
      // The copy the wait asked for is written before it is updated or removed.
      if (handoff) await handoff.kept;
      if (outcome.kind === "retry") await queues.retryLater(service, eventId, message.attempt + 1, outcome.firstFailedAt);
      else await queues.remove(service, eventId);
      return outcome;
    } catch (err) {
      if (outcome.kind === "ack" || outcome.kind === "retry") {
        // Handled but not forgotten (or its attempt not kept): a restart delivers it again, harmlessly.
        this.logger.warn({ err: (err as Error).message, service, eventId }, "event queue store not updated");
        return outcome;
      }
      this.logger.warn({ err: (err as Error).message, service, eventId }, "dead letter not recorded; retried later");
      const stepMs = stepAfter(subscription.retry, 1);
      return { kind: "retry", reason: outcome.reason, stepMs, delayMs: jittered(stepMs), firstFailedAt: message.firstFailedAt ?? Date.now() };
    }
  }

  /** Puts the dead letters an operator asked to replay back into the service's queue, as new. */
  private async replay(subscription: Subscription, queue: InProcessEventQueue): Promise<void> {
    const { stores } = this.bus;
    if (!stores || this.replaying.has(subscription.service)) return;
    this.replaying.add(subscription.service);
    try {
      for (const { key, body } of await stores.deadLetters.replayRequests(subscription.service)) {
        const eventId = idAndType(body).id;
        if (eventId !== undefined) await stores.queues?.enqueue([subscription.service], eventId, body);
        if (eventId !== undefined) queue.enqueueIfAbsent({ body, attempt: 1, eventId });
        else queue.enqueue({ body, attempt: 1 });
        await stores.deadLetters.markReplayed(key);
        this.logger.info({ service: subscription.service, eventId }, "dead letter replayed");
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, service: subscription.service }, "replaying dead letters failed; tried again at the next poll");
    } finally {
      this.replaying.delete(subscription.service);
    }
  }
}
