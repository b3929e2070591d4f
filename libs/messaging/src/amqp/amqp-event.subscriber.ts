import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from "amqplib";
import type { Logger } from "@payrail/runtime";
import type { EventCounters } from "../events/event-counters.ts";
import { originalSender, refusedEventSender } from "../events/event-senders.ts";
import { handleEvent, type EventOutcome } from "../events/handle-event.ts";
import { Subscriptions, type Subscription } from "../events/subscription.ts";
import type { TrustedSenders } from "../rpc/trusted-senders.ts";
import { declareEventQueues, EVENT_HEADERS, eventQueuesOf, type EventQueues } from "./event-topology.ts";
import { publishConfirmed } from "./publish-confirmed.ts";
import { QueueConsumers, type ConsumedQueue } from "./queue-consumers.ts";

interface Consumed extends ConsumedQueue<ConfirmChannel> {
  subscription: Subscription;
  queues: EventQueues;
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
 * the event is republished to `<service>.events.retry` with its attempt number in a header and
 * the retry delay as expiration, from where the broker dead-letters it back to the main queue;
 * after the last attempt it goes to `<service>.events.dead` with the reason. Either way the
 * original is acked only once the broker confirmed the copy, so a crash in between duplicates
 * the event rather than losing it. A connection lost mid-handler leaves the event unacked:
 * the broker redelivers it with its attempt count unchanged.
 */
export class AmqpEventSubscriber {
  private readonly subscriptions = new Subscriptions();
  private readonly consumers: QueueConsumers<ConfirmChannel, Consumed>;

  constructor(private readonly options: AmqpEventSubscriberOptions) {
    this.consumers = new QueueConsumers({
      logger: options.logger,
      recycle: options.recycle,
      openChannel: (model) => model.createConfirmChannel(),
      declare: (channel, { queues, subscription }) => declareEventQueues(channel, options.exchange, queues, subscription.patterns),
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
    await this.consumers.add({ subscription, queues, queue: queues.main, role: `events ${subscription.service}`, prefetch: subscription.prefetch });
  }

  /** Stops taking events, lets running handlers finish (up to `graceMs`), closes the channels. */
  stop(graceMs: number): Promise<void> {
    return this.consumers.stop(graceMs);
  }

  private async handle(channel: ConfirmChannel, { subscription, queues }: Consumed, message: ConsumeMessage): Promise<void> {
    const { logger, counters, trustedSenders, userId } = this.options;
    const attempt = attemptOf(message);
    const sender = originalSender({ userId: message.properties.userId as string | undefined, forwardedFrom: forwardedFrom(message) }, userId);
    const refuse = (event: { type: string }) => {
      const reason = refusedEventSender(trustedSenders, sender, event.type);
      return reason === undefined ? undefined : { reason, sender };
    };
    const outcome = await handleEvent(subscription, message.content.toString("utf8"), attempt, logger, counters, refuse);
    try {
      if (outcome.kind !== "ack") await this.sendOn(channel, queues, subscription, message, attempt, outcome, sender);
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
   * Republishes a failed event to its retry or dead-letter queue and waits for the confirm. The
   * copy goes out as this connection's user, naming the original's publisher in a header, so
   * the retried delivery is judged on who sent the original (see `events/event-senders.ts`).
   */
  private sendOn(
    channel: ConfirmChannel,
    queues: EventQueues,
    subscription: Subscription,
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
      headers: { ...kept, [EVENT_HEADERS.attempt]: retry ? attempt + 1 : attempt, [EVENT_HEADERS.error]: outcome.reason, ...(sender === undefined ? {} : { [EVENT_HEADERS.sender]: sender }) },
      ...(userId === undefined ? {} : { userId }),
      ...(retry ? { expiration: String(subscription.retryDelayMs) } : {}),
    };
    return publishConfirmed(channel, "", retry ? queues.retry : queues.dead, message.content, options, this.options.confirmTimeoutMs);
  }
}

function forwardedFrom(message: ConsumeMessage): string | undefined {
  const value: unknown = message.properties.headers?.[EVENT_HEADERS.sender];
  return typeof value === "string" ? value : Buffer.isBuffer(value) ? value.toString("utf8") : undefined;
}

function attemptOf(message: ConsumeMessage): number {
  const value: unknown = message.properties.headers?.[EVENT_HEADERS.attempt];
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : 1;
}
