import type { Channel, ChannelModel } from "amqplib";
import type { Logger } from "@payrail/runtime";

interface Known {
  consumers: number;
  at: number;
  refreshing?: Promise<number> | undefined;
}

/**
 * How many consumers a service queue has, as the broker last said (a passive queue.declare),
 * so a call to a service whose queue exists but that no instance serves fails at once
 * (`service_unavailable`) instead of waiting out its timeout. Answers are kept `maxAgeMs`:
 * between refreshes a call goes out on the last known count, so a busy service costs one
 * declare per `maxAgeMs`, not one per call.
 *
 * It has its own channel, because a passive declare of a missing queue closes the channel it
 * ran on (404); the next check opens another.
 */
export class QueueProbe {
  private model: ChannelModel | undefined;
  private channel: Promise<Channel> | undefined;
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly logger: Logger,
    private readonly maxAgeMs = 1_000,
  ) {}

  attach(model: ChannelModel): void {
    this.model = model;
    this.channel = undefined;
    this.known.clear();
  }

  detach(): void {
    this.model = undefined;
    this.channel = undefined;
    this.known.clear();
  }

  /** The last count when it is fresh enough to act on without asking; else undefined. */
  fresh(queue: string, now = Date.now()): number | undefined {
    const known = this.known.get(queue);
    return known && now - known.at < this.maxAgeMs ? known.consumers : undefined;
  }

  /** The last count, however old (undefined when never asked since the connection opened). */
  last(queue: string): number | undefined {
    return this.known.get(queue)?.consumers;
  }

  /** Asks the broker now (one request in flight per queue); 0 when the queue does not exist. */
  refresh(queue: string): Promise<number> {
    const known = this.known.get(queue);
    if (known?.refreshing) return known.refreshing;
    const refreshing = this.ask(queue).then(
      (consumers) => {
        this.known.set(queue, { consumers, at: Date.now() });
        return consumers;
      },
      (err: unknown) => {
        // Not knowing is not "nobody serves it": leave the decision to the call's own timeout.
        this.known.delete(queue);
        this.logger.debug({ queue, err: (err as Error).message }, "queue probe failed");
        return Number.POSITIVE_INFINITY;
      },
    );
    this.known.set(queue, { consumers: known?.consumers ?? Number.POSITIVE_INFINITY, at: known?.at ?? 0, refreshing });
    return refreshing;
  }

  /**
   * Whether `exchange` exists (a passive declare, which needs no permission): false on 404.
   * A publish to a missing exchange would close the publishing channel; this asks first.
   */
  async exchangeExists(exchange: string): Promise<boolean> {
    const model = this.model;
    if (!model) throw new Error("not connected");
    const channel = await (this.channel ??= this.open(model));
    try {
      await channel.checkExchange(exchange);
      return true;
    } catch (err) {
      this.channel = undefined;
      // Only the broker's answer about this exchange is a no: the probe's channel is shared, and
      // a queue probe's 404 closing it fails this check with that other message.
      const message = (err as Error).message;
      if (/NOT_FOUND|404/.test(message) && message.includes(`exchange '${exchange}'`)) return false;
      throw err;
    }
  }

  private async ask(queue: string): Promise<number> {
    const model = this.model;
    if (!model) throw new Error("not connected");
    const channel = await (this.channel ??= this.open(model));
    try {
      return (await channel.checkQueue(queue)).consumerCount;
    } catch (err) {
      // A missing queue answers 404 and closes the channel: nobody serves it.
      this.channel = undefined;
      if (/NOT_FOUND|404/.test((err as Error).message)) return 0;
      throw err;
    }
  }

  private async open(model: ChannelModel): Promise<Channel> {
    const channel = await model.createChannel();
    // The 404 above arrives as a channel error too; it is expected, so it is not a warning.
    channel.on("error", (err: Error) => this.logger.debug({ err: err.message }, "queue probe channel closed"));
    return channel;
  }
}
