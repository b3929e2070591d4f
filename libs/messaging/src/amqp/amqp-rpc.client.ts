import { randomUUID } from "node:crypto";
import type { Channel, ChannelModel, ConsumeMessage, Message } from "amqplib";
import { AppError, type Operation } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { settleReply } from "../rpc/dispatch-request.ts";
import { encodeRequest } from "../rpc/encode-request.ts";
import { serviceTimeout, serviceUnavailable } from "../rpc/rpc-errors.ts";
import type { CallContext, CallOptions } from "../transport.port.ts";
import { watchChannel } from "./watch-channel.ts";

/**
 * Where replies come back:
 * - `direct`: RabbitMQ's pseudo-queue `amq.rabbitmq.reply-to`, no queue declared at all;
 * - `exclusive-queue`: one server-named, exclusive, auto-delete queue per client connection,
 *   declared anew after every reconnect (the broker deletes it with the old connection).
 */
export type ReplyMode = "direct" | "exclusive-queue";

const DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

interface PendingCall {
  service: string;
  timer: NodeJS.Timeout;
  resolve(value: unknown): void;
  reject(err: Error): void;
  onReplayed: (() => void) | undefined;
}

export interface AmqpRpcClientOptions {
  logger: Logger;
  replyMode: ReplyMode;
  queueOf(service: string): string;
  /** Seconds a caller should wait before retrying while the broker is away. */
  retryAfterSeconds(): number;
  /** Rebuilds the connection when the client's channel dies on its own. */
  recycle(reason: string): void;
}

/**
 * The calling side: one channel per connection that publishes requests and consumes
 * replies (noAck: a reply is worth nothing once its caller is gone). Replies are matched by
 * correlationId; a reply for a call that already timed out finds nothing and is dropped.
 *
 * Requests go to the default exchange with `mandatory`, so a call to a service whose queue
 * was never declared comes straight back as a basic.return → `service_unavailable`, without
 * an extra round trip to check the queue. If the queue exists but nobody consumes it, the
 * call times out (`service_timeout`), and the request's `expiration` equals the timeout so
 * stale requests expire in the queue instead of being served long after their caller left.
 * The envelope's `deadline` covers what expiration cannot: a request already delivered (in a
 * consumer's prefetch, or redelivered) when its caller gives up is skipped by the server.
 */
export class AmqpRpcClient {
  private channel: Channel | undefined;
  private replyTo = DIRECT_REPLY_TO;
  private readonly pending = new Map<string, PendingCall>();
  private readonly idPrefix = `${randomUUID().slice(0, 8)}.`;
  private sequence = 0;

  constructor(private readonly options: AmqpRpcClientOptions) {}

  /** Opens the calling channel and its reply consumer on a (re)connected connection. */
  async attach(model: ChannelModel): Promise<void> {
    const { logger, replyMode } = this.options;
    const channel = await model.createChannel();
    watchChannel(channel, "rpc client", logger, () => this.channel === channel && this.options.recycle("rpc client channel closed"));
    channel.on("return", (message: Message) => this.onReturn(message));
    let replyTo = DIRECT_REPLY_TO;
    if (replyMode === "exclusive-queue") {
      replyTo = (await channel.assertQueue("", { exclusive: true, autoDelete: true, durable: false })).queue;
    }
    await channel.consume(replyTo, (message) => this.onReply(channel, message), { noAck: true });
    this.replyTo = replyTo;
    this.channel = channel;
  }

  /** The connection is gone: calls in flight can no longer get their reply. */
  detach(reason: string): void {
    this.channel = undefined;
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      clearTimeout(call.timer);
      call.reject(serviceUnavailable(`message broker connection lost (${reason})`, this.options.retryAfterSeconds()));
    }
  }

  call(operation: Operation, payload: unknown, ctx: CallContext, timeoutMs: number, options: CallOptions = {}): Promise<unknown> {
    const channel = this.channel;
    if (!channel) return Promise.reject(serviceUnavailable("message broker unavailable", this.options.retryAfterSeconds()));
    let body: Buffer;
    try {
      body = Buffer.from(encodeRequest(operation, payload, ctx, timeoutMs, options));
    } catch (err) {
      return Promise.reject(err);
    }
    const correlationId = this.idPrefix + (++this.sequence).toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(serviceTimeout(operation.pattern, timeoutMs));
      }, timeoutMs);
      this.pending.set(correlationId, { service: operation.service, timer, resolve, reject, onReplayed: options.onReplayed });
      try {
        channel.publish("", this.options.queueOf(operation.service), body, {
          correlationId,
          replyTo: this.replyTo,
          expiration: String(timeoutMs),
          mandatory: true,
          contentType: "application/json",
        });
      } catch {
        // The channel closed under us (amqplib throws IllegalOperationError).
        this.settle(correlationId, serviceUnavailable("message broker unavailable", this.options.retryAfterSeconds()));
      }
    });
  }

  private onReply(channel: Channel, message: ConsumeMessage | null): void {
    if (message === null) {
      // The broker cancelled our reply consumer (reply queue deleted): rebuild everything.
      if (this.channel === channel) this.options.recycle("reply consumer cancelled by broker");
      return;
    }
    const id = message.properties.correlationId as string | undefined;
    const call = id === undefined ? undefined : this.pending.get(id);
    if (!call || id === undefined) {
      this.options.logger.debug({ correlationId: id }, "dropped reply of a call that already ended");
      return;
    }
    try {
      const value = settleReply(JSON.parse(message.content.toString("utf8")), call.onReplayed);
      this.settle(id, undefined, value);
    } catch (err) {
      this.settle(id, err instanceof AppError ? err : new AppError("internal_error", "Malformed RPC reply"));
    }
  }

  /** basic.return of a mandatory request: no queue by that name, so nobody serves it. */
  private onReturn(message: Message): void {
    const id = message.properties.correlationId as string | undefined;
    const call = id === undefined ? undefined : this.pending.get(id);
    if (!call || id === undefined) return;
    this.settle(id, serviceUnavailable(`service ${call.service} is not running`));
  }

  private settle(id: string, err: Error | undefined, value?: unknown): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    clearTimeout(call.timer);
    if (err) call.reject(err);
    else call.resolve(value);
  }
}
