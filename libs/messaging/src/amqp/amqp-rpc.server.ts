import type { Channel, ChannelModel, ConsumeMessage } from "amqplib";
import type { RpcReplyEnvelope } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { dispatchRequest, encodeReply, undecodableReply } from "../rpc/dispatch-request.ts";
import { ExpiredRequests } from "../rpc/expired-requests.ts";
import { createHandlerTable, type HandlerTable } from "../rpc/handler-table.ts";
import { InFlight } from "../rpc/in-flight.ts";
import type { HandlerEntry } from "../transport.port.ts";
import { watchChannel } from "./watch-channel.ts";

interface ServedQueue {
  service: string;
  queue: string;
  table: HandlerTable;
  channel?: Channel | undefined;
  consumerTag?: string | undefined;
}

export interface AmqpRpcServerOptions {
  logger: Logger;
  prefetch: number;
  queueOf(service: string): string;
  recycle(reason: string): void;
}

/**
 * The serving side: one channel per served service, consuming the service's durable queue
 * with manual ack and an explicit prefetch (at most `prefetch` unacked requests per
 * consumer; several instances of a service share the queue round-robin).
 *
 * Each request is acked only after its reply is published on the same channel, so a
 * process that dies mid-request leaves the request to be redelivered. Malformed messages
 * get an error reply when they say where to send one, and are acked either way: requeueing
 * them would loop forever. A request past its deadline is acked without running its handler
 * or replying (its caller has timed out) and counted in `expiredCount`.
 */
export class AmqpRpcServer {
  private readonly served: ServedQueue[] = [];
  private readonly inFlight = new InFlight();
  private readonly expired: ExpiredRequests;
  private model: ChannelModel | undefined;
  private stopping = false;

  constructor(private readonly options: AmqpRpcServerOptions) {
    this.expired = new ExpiredRequests(options.logger);
  }

  /** Requests skipped because their deadline had passed when they arrived. */
  get expiredCount(): number {
    return this.expired.count;
  }

  /** Starts consuming every served queue on a (re)connected connection. */
  async attach(model: ChannelModel): Promise<void> {
    this.model = model;
    for (const served of [...this.served]) await this.consume(model, served);
  }

  /** The connection is gone; its channels with it (unacked requests return to the queue). */
  detach(): void {
    this.model = undefined;
    for (const served of this.served) {
      served.channel = undefined;
      served.consumerTag = undefined;
    }
  }

  /** Registers a service; consumes now if connected, else on the next connect. */
  async serve(service: string, entries: HandlerEntry[]): Promise<void> {
    const served: ServedQueue = { service, queue: this.options.queueOf(service), table: createHandlerTable(service, entries) };
    this.served.push(served);
    if (this.model) await this.consume(this.model, served);
    else this.options.logger.warn({ service }, "message broker unavailable: will serve once connected");
  }

  /**
   * Stops taking requests, waits (up to `graceMs`) for the ones being handled, then closes
   * the channels. Closing each channel before the connection matters: amqplib interleaves
   * channels' frames on the socket, so a connection.close could overtake the last replies.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.served.map(async ({ channel, consumerTag }) => {
        if (channel && consumerTag) await channel.cancel(consumerTag).catch(() => undefined);
      }),
    );
    await this.inFlight.drain(graceMs);
    await Promise.all(this.served.map(({ channel }) => channel?.close().catch(() => undefined)));
  }

  private async consume(model: ChannelModel, served: ServedQueue): Promise<void> {
    const { logger, prefetch } = this.options;
    const channel = await model.createChannel();
    watchChannel(channel, `rpc server ${served.service}`, logger, () => {
      if (served.channel === channel && !this.stopping) this.options.recycle(`${served.queue} channel closed`);
    });
    await channel.prefetch(prefetch);
    await channel.assertQueue(served.queue, { durable: true });
    served.channel = channel;
    const { consumerTag } = await channel.consume(served.queue, (message) => {
      if (message) void this.inFlight.track(this.handle(channel, served, message));
      else if (served.channel === channel && !this.stopping) this.options.recycle(`consumer of ${served.queue} cancelled by broker`);
    });
    served.consumerTag = consumerTag;
  }

  private async handle(channel: Channel, served: ServedQueue, message: ConsumeMessage): Promise<void> {
    const { logger } = this.options;
    const { correlationId, replyTo } = message.properties as { correlationId?: string; replyTo?: string };
    let reply: RpcReplyEnvelope | null;
    try {
      reply = await dispatchRequest(served.table, JSON.parse(message.content.toString("utf8")), logger, this.expired);
    } catch (err) {
      // dispatchRequest never throws, so this is JSON.parse refusing the body.
      logger.warn({ queue: served.queue, bytes: message.content.length, err: (err as Error).message }, "dropped RPC request that is not JSON");
      reply = undecodableReply();
    }
    try {
      if (reply === null) {
        // Past its deadline: nobody waits for a reply, so none is sent.
      } else if (replyTo && correlationId) {
        channel.publish("", replyTo, Buffer.from(encodeReply(reply, logger)), { correlationId, contentType: "application/json" });
      } else {
        logger.warn({ queue: served.queue }, "RPC request without replyTo/correlationId: no reply sent");
      }
      channel.ack(message);
    } catch (err) {
      // The channel died while the handler ran; the broker requeues the request.
      logger.debug({ err: (err as Error).message, queue: served.queue }, "RPC reply not sent: channel closed");
    }
  }
}
