import type { DomainEvent } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { EventHandler, EventStats, SubscribeOptions } from "../events.port.ts";
import { encodeEvent } from "../events/encode-event.ts";
import { EventCounters } from "../events/event-counters.ts";
import { handleEvent } from "../events/handle-event.ts";
import { createSubscription, Subscriptions } from "../events/subscription.ts";
import { InFlight } from "../rpc/in-flight.ts";
import type { InProcessBus } from "./in-process.bus.ts";
import type { DeliveryOutcome, InProcessEventConsumer, InProcessEventQueue } from "./in-process-event.queue.ts";

/**
 * The event side of one in-process transport: publishes into the bus's queues and consumes
 * them through the same `handleEvent` as the RabbitMQ subscriber, so an event is validated,
 * retried and dead-lettered alike on both. Events go through JSON like on the wire.
 */
export class InProcessEvents {
  private readonly counters = new EventCounters();
  private readonly subscriptions = new Subscriptions();
  private readonly consuming: { queue: InProcessEventQueue; consumer: InProcessEventConsumer }[] = [];
  private readonly running = new InFlight();
  /** Resolves when close() gives up on running handlers: their events are requeued. */
  private abandon: () => void = () => undefined;
  private readonly abandoned = new Promise<DeliveryOutcome>((resolve) => (this.abandon = () => resolve({ kind: "requeue" })));

  constructor(
    private readonly bus: InProcessBus,
    private readonly logger: Logger,
  ) {}

  /** "Confirmed" once in every bound queue: the bus is memory only, so durable only while the process runs. */
  async publish(event: DomainEvent): Promise<void> {
    const body = encodeEvent(event);
    for (const queue of this.bus.eventQueuesBoundTo(event.type)) queue.enqueue({ body, attempt: 1 });
    this.counters.count("published", event.type);
  }

  async subscribe(service: string, patterns: readonly string[], handler: EventHandler, options?: SubscribeOptions): Promise<void> {
    const subscription = createSubscription(service, patterns, handler, options);
    this.subscriptions.add(subscription);
    const queue = this.bus.eventQueue(service);
    queue.bind(subscription.patterns);
    const consumer: InProcessEventConsumer = {
      prefetch: subscription.prefetch,
      retryDelayMs: subscription.retryDelayMs,
      deliver: (message) => {
        const handled = handleEvent(subscription, message.body, message.attempt, this.logger, this.counters);
        return this.running.track(Promise.race([handled, this.abandoned]));
      },
    };
    this.consuming.push({ queue, consumer });
    queue.addConsumer(consumer);
  }

  stats(): EventStats {
    return this.counters.snapshot();
  }

  /** Stops consuming, lets running handlers finish (up to `graceMs`), requeues the rest. */
  async close(graceMs: number): Promise<void> {
    for (const { queue, consumer } of this.consuming.splice(0)) queue.removeConsumer(consumer);
    await this.running.drain(graceMs);
    this.abandon();
  }
}
