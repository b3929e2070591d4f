import type { ChannelModel, ConfirmChannel } from "amqplib";
import type { DomainEvent } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import type { EventCounters } from "../events/event-counters.ts";
import { encodeEvent } from "../events/encode-event.ts";
import { InFlight } from "../rpc/in-flight.ts";
import { serviceUnavailable } from "../rpc/rpc-errors.ts";
import { assertEventsExchange } from "./event-topology.ts";
import { publishConfirmed } from "./publish-confirmed.ts";
import { watchChannel } from "./watch-channel.ts";

export interface AmqpEventPublisherOptions {
  logger: Logger;
  exchange: string;
  /** How long a publish waits for the broker's confirm. */
  confirmTimeoutMs: number;
  counters: EventCounters;
  retryAfterSeconds(): number;
  recycle(reason: string): void;
  /** The connection's broker user, sent as `user_id` (validated by the broker): who published. */
  userId: string | undefined;
}

/**
 * The publishing side: one confirm channel per connection, persistent messages to the topic
 * exchange with the event's type as routing key and its id as `messageId`.
 *
 * Not `mandatory`: an event no service subscribes to is routed nowhere and that is fine.
 * Subscribers' queues are durable and declared when they first subscribe, so from then on
 * events wait for them even while they are down.
 *
 * The exchange is declared by the first publish on each connection, not on connect: a
 * process that never publishes (the gateway, the CLI) needs no permission on it, so the
 * broker can refuse them both declaring and publishing there (deploy/rabbitmq).
 */
export class AmqpEventPublisher {
  private channel: ConfirmChannel | undefined;
  private readonly publishing = new InFlight();
  private declared: Promise<unknown> | undefined;

  constructor(private readonly options: AmqpEventPublisherOptions) {}

  /** Opens the confirm channel on a (re)connected connection. */
  async attach(model: ChannelModel): Promise<void> {
    const channel = await model.createConfirmChannel();
    watchChannel(channel, "event publisher", this.options.logger, () => this.channel === channel && this.options.recycle("event publisher channel closed"));
    this.declared = undefined;
    this.channel = channel;
  }

  /** The connection is gone: amqplib fails the publishes awaiting a confirm ("channel closed"). */
  detach(): void {
    this.channel = undefined;
  }

  async publish(event: DomainEvent): Promise<void> {
    const body = Buffer.from(encodeEvent(event));
    const channel = this.channel;
    if (!channel) throw serviceUnavailable("message broker unavailable", this.options.retryAfterSeconds());
    const { exchange, confirmTimeoutMs, userId } = this.options;
    const declared = (this.declared ??= assertEventsExchange(channel, exchange));
    try {
      await declared;
    } catch (err) {
      if (this.declared === declared) this.declared = undefined; // the next publish tries again
      throw err;
    }
    const properties = { persistent: true, messageId: event.id, type: event.type, contentType: "application/json", ...(userId === undefined ? {} : { userId }) };
    await this.publishing.track(publishConfirmed(channel, exchange, event.type, body, properties, confirmTimeoutMs));
    this.options.counters.count("published", event.type);
  }

  /** Waits (up to `graceMs`) for publishes awaiting their confirm, then closes the channel. */
  async close(graceMs: number): Promise<void> {
    await this.publishing.drain(graceMs);
    const channel = this.channel;
    this.channel = undefined;
    await channel?.close().catch(() => undefined);
  }
}
