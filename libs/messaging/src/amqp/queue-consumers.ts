import type { Channel, ChannelModel, ConsumeMessage } from "amqplib";
import type { Logger } from "@payrail/runtime";
import { InFlight } from "../rpc/in-flight.ts";
import { watchChannel } from "./watch-channel.ts";

/** One queue this process consumes, and its current channel (none while disconnected). */
export interface ConsumedQueue<C extends Channel> {
  readonly queue: string;
  /** Names the consumer in logs, e.g. `rpc server payments`. */
  readonly role: string;
  /** Unacked messages its consumer may hold at once. */
  readonly prefetch: number;
  channel?: C | undefined;
  consumerTag?: string | undefined;
}

export interface QueueConsumersOptions<C extends Channel, Q extends ConsumedQueue<C>> {
  logger: Logger;
  recycle(reason: string): void;
  /** Opens the kind of channel this side needs (plain, or with publisher confirms). */
  openChannel(model: ChannelModel): Promise<C>;
  /** Declares the queue and whatever it needs on the fresh channel, before consuming. */
  declare(channel: C, consumed: Q): Promise<void>;
  /** Handles one delivery, acking it (or not) on `channel`. */
  handle(channel: C, consumed: Q, message: ConsumeMessage): Promise<void>;
}

/**
 * The consuming machinery the RPC server and the event subscriber share: their queues are
 * consumed on every (re)connection, one channel each, with manual ack and an explicit prefetch;
 * running handlers are tracked so stop() can let them finish; and a channel that dies alone, or
 * a consumer the broker cancels, recycles the whole connection, since that queue would
 * otherwise go unconsumed until the next restart.
 */
export class QueueConsumers<C extends Channel, Q extends ConsumedQueue<C>> {
  private readonly consumed: Q[] = [];
  private readonly inFlight = new InFlight();
  private model: ChannelModel | undefined;
  private stopping = false;

  constructor(private readonly options: QueueConsumersOptions<C, Q>) {}

  /** Declares and consumes every queue again on a (re)connected connection. */
  async attach(model: ChannelModel): Promise<void> {
    // Drained (stop) stays drained: a reconnection during a drain must not consume again.
    if (this.stopping) return;
    this.model = model;
    for (const consumed of [...this.consumed]) await this.consume(model, consumed);
  }

  /** The connection is gone, its channels with it (their unacked messages return to the queues). */
  detach(): void {
    this.model = undefined;
    for (const consumed of this.consumed) {
      consumed.channel = undefined;
      consumed.consumerTag = undefined;
    }
  }

  /** Adds a queue: consumed now if connected, else on the next connect. */
  async add(consumed: Q): Promise<void> {
    this.consumed.push(consumed);
    if (this.model) await this.consume(this.model, consumed);
    else this.options.logger.warn({ queue: consumed.queue }, "message broker unavailable: will consume once connected");
  }

  /**
   * Stops taking messages, waits (up to `graceMs`) for the ones being handled, then closes the
   * channels. Closing each channel before the connection matters: amqplib interleaves
   * channels' frames on the socket, so a connection.close could overtake the last replies/acks.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.consumed.map(async ({ channel, consumerTag }) => {
        if (channel && consumerTag) await channel.cancel(consumerTag).catch(() => undefined);
      }),
    );
    await this.inFlight.drain(graceMs);
    await Promise.all(this.consumed.map(({ channel }) => channel?.close().catch(() => undefined)));
  }

  private async consume(model: ChannelModel, consumed: Q): Promise<void> {
    const { logger, recycle } = this.options;
    const channel = await this.options.openChannel(model);
    watchChannel(channel, consumed.role, logger, () => {
      if (consumed.channel === channel && !this.stopping) recycle(`${consumed.queue} channel closed`);
    });
    await channel.prefetch(consumed.prefetch);
    await this.options.declare(channel, consumed);
    consumed.channel = channel;
    const { consumerTag } = await channel.consume(consumed.queue, (message) => {
      if (message) void this.inFlight.track(this.options.handle(channel, consumed, message));
      else if (consumed.channel === channel && !this.stopping) recycle(`consumer of ${consumed.queue} cancelled by broker`);
    });
    consumed.consumerTag = consumerTag;
  }
}
