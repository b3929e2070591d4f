import type { Channel, ChannelModel, ConsumeMessage } from "amqplib";
import type { Principal, RpcReplyEnvelope } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { dispatchRequest, undecodableReply } from "../rpc/dispatch-request.ts";
import { ExpiredRequests } from "../rpc/expired-requests.ts";
import { createHandlerTable, type HandlerTable } from "../rpc/handler-table.ts";
import type { ReplyLedger } from "../rpc/reply-ledger.port.ts";
import type { HandlerEntry } from "../transport.port.ts";
import { believesClientIp, refusedPrincipal, type TrustedSenders } from "../rpc/trusted-senders.ts";
import { QueueConsumers, type ConsumedQueue } from "./queue-consumers.ts";
import { encodeReplyMessage } from "./reply-format.ts";
import { declareRpcQueue } from "./rpc-topology.ts";

interface ServedQueue extends ConsumedQueue<Channel> {
  service: string;
  table: HandlerTable;
}

export interface AmqpRpcServerOptions {
  logger: Logger;
  prefetch: number;
  queueOf(service: string): string;
  /** The exchange requests come through (`RPC_EXCHANGE`); each served queue is bound to it. */
  exchange: string;
  recycle(reason: string): void;
  /** Who may send which principals (by the broker-validated `user_id`); unset: everyone. */
  trustedSenders?: TrustedSenders | undefined;
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
 * or replying (its caller has timed out) and counted in `expiredCount`. With `trustedSenders`,
 * a request whose principal its sender (`user_id`) may not carry is answered `permission_denied`.
 */
export class AmqpRpcServer {
  private readonly consumers: QueueConsumers<Channel, ServedQueue>;
  private readonly expired: ExpiredRequests;
  /** Where requests that ask to run once are remembered; without one they run every time. */
  ledger: ReplyLedger | undefined;

  constructor(private readonly options: AmqpRpcServerOptions) {
    this.expired = new ExpiredRequests(options.logger);
    this.consumers = new QueueConsumers({
      logger: options.logger,
      recycle: options.recycle,
      openChannel: (model) => model.createChannel(),
      declare: (channel, served) => declareRpcQueue(channel, options.exchange, served.queue),
      handle: (channel, served, message) => this.handle(channel, served, message),
    });
  }

  /** Requests skipped because their deadline had passed when they arrived. */
  get expiredCount(): number {
    return this.expired.count;
  }

  /** Starts consuming every served queue on a (re)connected connection. */
  attach(model: ChannelModel): Promise<void> {
    return this.consumers.attach(model);
  }

  /** The connection is gone; its channels with it (unacked requests return to the queue). */
  detach(): void {
    this.consumers.detach();
  }

  /** Registers a service; consumes now if connected, else on the next connect. */
  async serve(service: string, entries: HandlerEntry[]): Promise<void> {
    const { prefetch, queueOf } = this.options;
    const table = createHandlerTable(service, entries);
    await this.consumers.add({ service, table, queue: queueOf(service), role: `rpc server ${service}`, prefetch });
  }

  /** Stops taking requests, waits (up to `graceMs`) for the ones being handled, closes the channels. */
  stop(graceMs: number): Promise<void> {
    return this.consumers.stop(graceMs);
  }

  private async handle(channel: Channel, served: ServedQueue, message: ConsumeMessage): Promise<void> {
    const { logger } = this.options;
    const { correlationId, replyTo, userId } = message.properties as { correlationId?: string; replyTo?: string; userId?: string };
    const trust = this.options.trustedSenders;
    const refusal = trust && ((principal: Principal, pattern: string) => {
      const reason = refusedPrincipal(trust, userId, principal, pattern);
      return reason === undefined ? undefined : { reason, sender: userId };
    });
    let reply: RpcReplyEnvelope | null;
    try {
      const request: unknown = JSON.parse(message.content.toString("utf8"));
      if (!believesClientIp(trust, userId)) dropClientIp(request);
      reply = await dispatchRequest(served.table, request, logger, this.expired, this.ledger, refusal);
    } catch (err) {
      // dispatchRequest never throws, so this is JSON.parse refusing the body.
      logger.warn({ queue: served.queue, bytes: message.content.length, err: (err as Error).message }, "dropped RPC request that is not JSON");
      reply = undecodableReply();
    }
    try {
      if (reply === null) {
        // Past its deadline: nobody waits for a reply, so none is sent.
      } else if (replyTo && correlationId) {
        const { body, type } = encodeReplyMessage(reply, logger);
        channel.publish("", replyTo, body, type === undefined ? { correlationId, contentType: "application/json" } : { correlationId, contentType: "application/json", type });
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

/** Removes a request's `clientIp`: only the gateway's is believed (see `believesClientIp`). */
function dropClientIp(request: unknown): void {
  if (typeof request === "object" && request !== null && "clientIp" in request) delete (request as { clientIp?: unknown }).clientIp;
}
