import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from "amqplib";
import type { Logger } from "@payrail/runtime";
import type { EventCounters } from "../events/event-counters.ts";
import { originalSender, refusedEventSender } from "../events/event-senders.ts";
import type { EventDeadLetterStore } from "../events/event-stores.port.ts";
import { handleEvent, type DeliveryState, type EventOutcome } from "../events/handle-event.ts";
import { idAndType } from "../events/id-and-type.ts";
import { jittered, retrySteps, stepAfter } from "../events/retry-policy.ts";
import { Subscriptions, type Subscription } from "../events/subscription.ts";
import type { TrustedSenders } from "../rpc/trusted-senders.ts";
import { declareEventQueues, EVENT_HEADERS, eventQueuesOf, type EventQueues } from "./event-topology.ts";
import { publishConfirmed } from "./publish-confirmed.ts";
import { replayDeadLetters } from "./replay-dead-letters.ts";
import { QueueConsumers, type ConsumedQueue } from "./queue-consumers.ts";

interface Consumed extends ConsumedQueue<ConfirmChannel> {
  subscription: Subscription;
  queues: EventQueues;
  /** A replay poll is under way. */
  replaying?: boolean;
}

export interface AmqpEventSubscriberOptions {
  logger: Logger;
  exchange: string;
  queuePrefix: string;
  /** How long sending an event on to its retry or dead-letter queue waits for the confirm. */
  confirmTimeoutMs: number;
  counters: EventCounters;
  recycle(reason: string): void;
  /** Whose events are accepted (each type from its owning service's users); unset: everyone's. */
  trustedSenders: TrustedSenders | undefined;
  /** This connection's broker user: what the copies it sends on carry as `user_id`. */
  userId: string | undefined;
}

/**
 * The subscribing side: one confirm channel per subscribed service, consuming the service's
 * durable queue with manual ack and the subscription's prefetch; replicas consume the same
 * queue and share its events round-robin.
 *
 * An event is acked only after its handler resolved. A failed attempt is not nacked back
 * (classic queues do not count redeliveries, and a requeued poison event would spin at once):
 * the event is republished to the retry tier of its backoff step, `<service>.events.retry.<ms>`,
 * with its attempt number and first failure time in headers and a jittered expiration, from
 * where the broker dead-letters it back to the main queue. An event that can never apply, or
 * is out of retry time, is recorded in the dead-letter store (`useEventStores`; without one,
 * republished to `<service>.events.dead` with the reason). Either way the original is acked
 * only once the copy is confirmed (or recorded), so a crash in between duplicates the event
 * rather than losing it. A connection lost mid-handler leaves the event unacked: the broker
 * redelivers it with its attempt count unchanged.
 *
 * Replays: every `replayPollMs` each subscription asks the dead-letter store for its replay
 * requests and sends each back into its own main queue (confirmed) before marking it replayed.
 */
export class AmqpEventSubscriber {
  private readonly subscriptions = new Subscriptions();
  private readonly consumers: QueueConsumers<ConfirmChannel, Consumed>;
  private readonly replayTimers: NodeJS.Timeout[] = [];
  /** Where dead letters are recorded and replay requests found; unset: the `.dead` queue. */
  deadLetters: EventDeadLetterStore | undefined;

  constructor(private readonly options: AmqpEventSubscriberOptions) {
    this.consumers = new QueueConsumers({
      logger: options.logger,
      recycle: options.recycle,
      openChannel: (model) => model.createConfirmChannel(),
      declare: (channel, { queues, subscription }) => declareEventQueues(channel, options.exchange, queues, subscription.patterns, retrySteps(subscription.retry)),
      handle: (channel, consumed, message) => this.handle(channel, consumed, message),
    });
  }

  /** Redeclares the queues and consumes them again on a (re)connected connection. */
  attach(model: ChannelModel): Promise<void> {
    return this.consumers.attach(model);
  }

  /** The connection is gone, its channels with it (their unacked events return to the queues). */
  detach(): void {
    this.consumers.detach();
  }

  /** Registers a subscription; declares and consumes now if connected, else on the next connect. */
  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.add(subscription);
    const queues = eventQueuesOf(this.options.queuePrefix, subscription.service);
    const consumed: Consumed = { subscription, queues, queue: queues.main, role: `events ${subscription.service}`, prefetch: subscription.prefetch };
    await this.consumers.add(consumed);
    const timer = setInterval(() => void this.replay(consumed), subscription.replayPollMs);
    timer.unref();
    this.replayTimers.push(timer);
  }

  /** Stops taking events, lets running handlers finish (up to `graceMs`), closes the channels. */
  stop(graceMs: number): Promise<void> {
    for (const timer of this.replayTimers.splice(0)) clearInterval(timer);
    return this.consumers.stop(graceMs);
  }

  /** One replay poll of a subscription at a time: a slow store must not send the same letters twice. */
  private async replay(consumed: Consumed): Promise<void> {
    const { subscription, queues, channel } = consumed;
    const deadLetters = this.deadLetters;
    if (!deadLetters || !channel || consumed.replaying) return;
    consumed.replaying = true;
    try {
      await replayDeadLetters(channel, queues.main, subscription.service, deadLetters, this.options.confirmTimeoutMs, this.options.logger, this.options.userId);
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message, service: subscription.service }, "replaying dead letters failed; tried again at the next poll");
    } finally {
      consumed.replaying = false;
    }
  }

  private async handle(channel: ConfirmChannel, { subscription, queues }: Consumed, message: ConsumeMessage): Promise<void> {
    const { logger, counters, trustedSenders, userId } = this.options;
    const state = deliveryStateOf(message);
    const body = message.content.toString("utf8");
    const sender = originalSender({ userId: message.properties.userId as string | undefined, forwardedFrom: forwardedFrom(message) }, userId);
    const refuse = (event: { type: string }) => {
      const reason = refusedEventSender(trustedSenders, sender, event.type);
      return reason === undefined ? undefined : { reason, sender };
    };
    let outcome = await handleEvent(subscription, body, state, logger, counters, Date.now, refuse);
    try {
      if (outcome.kind === "dead" && this.deadLetters) {
        const { reason } = outcome;
        try {
          const { id: eventId, type } = idAndType(body);
          await this.deadLetters.put({ service: subscription.service, eventId, type, reason, attempts: state.attempt, body, sender });
          outcome = { kind: "ack" };
        } catch (err) {
          // Not recorded (the store is away): the event goes round a retry tier and is decided again.
          logger.warn({ err: (err as Error).message, queue: queues.main }, "dead letter not recorded; retried later");
          const stepMs = stepAfter(subscription.retry, 1);
          outcome = { kind: "retry", reason, stepMs, delayMs: jittered(stepMs), firstFailedAt: state.firstFailedAt ?? Date.now() };
          state.attempt -= 1; // the same attempt again, not a new one
        }
      }
      if (outcome.kind !== "ack") await this.sendOn(channel, queues, message, state.attempt, outcome, sender);
      channel.ack(message);
    } catch (err) {
      // The copy was not confirmed: hand the event back (or, if the channel is gone, the broker
      // does) and it is tried again with the same attempt number.
      logger.warn({ err: (err as Error).message, queue: queues.main }, "event not acked: left for redelivery");
      try {
        channel.nack(message, false, true);
      } catch {
        // Channel closed: the broker requeues everything unacked on it.
      }
    }
  }

  /**
   * Republishes a failed event to its retry tier or the dead-letter queue and waits for the
   * confirm. The copy goes out as this connection's user, naming the original's publisher in a
   * header, so the retried delivery is judged on who sent the original (see `events/event-senders.ts`).
   */
  private sendOn(
    channel: ConfirmChannel,
    queues: EventQueues,
    message: ConsumeMessage,
    attempt: number,
    outcome: Exclude<EventOutcome, { kind: "ack" }>,
    sender: string | undefined,
  ): Promise<void> {
    const { messageId, type, contentType, headers } = message.properties as Options.Publish;
    const retry = outcome.kind === "retry";
    const { userId } = this.options;
    // The sender is set anew: a copy's own header speaks only for the copy this subscriber checked.
    const kept: Record<string, unknown> = { ...headers };
    delete kept[EVENT_HEADERS.sender];
    const options: Options.Publish = {
      persistent: true,
      messageId,
      type,
      contentType,
      headers: {
        ...kept,
        [EVENT_HEADERS.attempt]: retry ? attempt + 1 : attempt,
        [EVENT_HEADERS.error]: outcome.reason,
        ...(retry ? { [EVENT_HEADERS.firstFailedAt]: outcome.firstFailedAt } : {}),
        ...(sender === undefined ? {} : { [EVENT_HEADERS.sender]: sender }),
      },
      ...(userId === undefined ? {} : { userId }),
      ...(retry ? { expiration: String(outcome.delayMs) } : {}),
    };
    return publishConfirmed(channel, "", retry ? queues.retry(outcome.stepMs) : queues.dead, message.content, options, this.options.confirmTimeoutMs);
  }
}

function forwardedFrom(message: ConsumeMessage): string | undefined {
  const value: unknown = message.properties.headers?.[EVENT_HEADERS.sender];
  return typeof value === "string" ? value : Buffer.isBuffer(value) ? value.toString("utf8") : undefined;
}

function deliveryStateOf(message: ConsumeMessage): DeliveryState {
  const attempt: unknown = message.properties.headers?.[EVENT_HEADERS.attempt];
  const firstFailedAt: unknown = message.properties.headers?.[EVENT_HEADERS.firstFailedAt];
  return {
    attempt: typeof attempt === "number" && Number.isInteger(attempt) && attempt >= 1 ? attempt : 1,
    firstFailedAt: typeof firstFailedAt === "number" && Number.isFinite(firstFailedAt) ? firstFailedAt : undefined,
  };
}
