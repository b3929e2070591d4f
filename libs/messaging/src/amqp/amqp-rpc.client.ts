import { randomUUID } from "node:crypto";
import type { Channel, ChannelModel, ConsumeMessage, Message } from "amqplib";
import { AppError, type Operation } from "@payrail/contracts";
import type { Logger } from "@payrail/runtime";
import { encodeRequest, runsOnce } from "../rpc/encode-request.ts";
import { serviceTimeout, serviceUnavailable } from "../rpc/rpc-errors.ts";
import type { CallContext, CallOptions } from "../transport.port.ts";
import { QueueProbe } from "./queue-probe.ts";
import { decodeReplyMessage } from "./reply-format.ts";
import { watchChannel } from "./watch-channel.ts";

/**
 * Where replies come back:
 * - `direct`: RabbitMQ's pseudo-queue `amq.rabbitmq.reply-to`, no queue declared at all;
 * - `exclusive-queue`: one server-named, exclusive, auto-delete queue per client connection,
 *   declared anew after every reconnect (the broker deletes it with the old connection).
 */
export type ReplyMode = "direct" | "exclusive-queue";

const DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

/**
 * After a reconnect, how long a "no consumer" answer is not believed. The services lost the
 * broker too and are reconnecting on the same backoff (capped at 5 s, plus a connect attempt):
 * a zero in this window means "not back yet", not "dead", so calls are sent and wait in the
 * queue within their own timeout. A first connection trusts the broker at once.
 */
const RECONNECT_GRACE_MS = 10_000;
/** How often a call made in that grace asks again whether the RPC exchange is back. */
const EXCHANGE_RECHECK_MS = 250;

interface PendingCall {
  service: string;
  timer: NodeJS.Timeout;
  resolve(value: unknown): void;
  reject(err: Error): void;
  onReplayed: (() => void) | undefined;
  /** The caller takes a success's data as `JsonText` (see `CallOptions.asJsonText`). */
  asJsonText: boolean;
  /** A call that runs at most once (it has a callId) is sent again after a lost connection. */
  resend: { queue: string; body: Buffer; deadline: number } | undefined;
}

export interface AmqpRpcClientOptions {
  logger: Logger;
  replyMode: ReplyMode;
  queueOf(service: string): string;
  /** The exchange requests are published to (`RPC_EXCHANGE`), declared by the servers. */
  exchange: string;
  /** Seconds a caller should wait before retrying while the broker is away. */
  retryAfterSeconds(): number;
  /** Rebuilds the connection when the client's channel dies on its own. */
  recycle(reason: string): void;
  /**
   * The broker user this connection logs in as (when its URL names one), sent as every
   * request's `user_id`: RabbitMQ refuses a message whose `user_id` is not its connection's
   * user, so servers can trust it.
   */
  userId: string | undefined;
}

/**
 * The calling side: one channel per connection that publishes requests and consumes
 * replies (noAck: a reply is worth nothing once its caller is gone). Replies are matched by
 * correlationId; a reply for a call that already timed out finds nothing and is dropped.
 *
 * Requests go to the RPC exchange (`rpc-topology.ts`: not the default exchange, which would
 * reach every queue) with `mandatory`, so a call to a service whose queue was never declared
 * and bound comes straight back as a basic.return → `service_unavailable`; until some server
 * has declared the exchange itself (a fresh broker), calls fail the same way without being
 * sent, since a publish to a missing exchange would close the channel. A queue
 * that exists but that no instance consumes (all died) is caught by the `QueueProbe`: a call
 * fails at once with `service_unavailable` when the broker last said it has no consumer, and
 * calls waiting on it are failed when a check during the wait finds none (a check per service
 * per second at most, only while calls are pending or after a zero); for a while after a
 * reconnect a zero is not believed (`RECONNECT_GRACE_MS`), since the services are reconnecting
 * too. The request's
 * `expiration` equals the timeout, so stale requests expire in the queue instead of being
 * served long after their caller left.
 * The envelope's `deadline` covers what expiration cannot: a request already delivered (in a
 * consumer's prefetch, or redelivered) when its caller gives up is skipped by the server.
 *
 * A lost connection fails the calls in flight with `service_unavailable`, except those that
 * run at most once (a `callId`, see `runsOnce`): they wait for the reconnect (within their own
 * timeout) and are sent again, same bytes, to the new reply queue; the server's reply ledger
 * answers a repeat of a call that already ran with its first reply. So a short broker blip
 * costs those calls latency, not an error. Calls made while disconnected still fail at once.
 */
export class AmqpRpcClient {
  private channel: Channel | undefined;
  private replyTo = DIRECT_REPLY_TO;
  private readonly pending = new Map<string, PendingCall>();
  private readonly idPrefix = `${randomUUID().slice(0, 8)}.`;
  private sequence = 0;
  private readonly probe: QueueProbe;
  private watch: NodeJS.Timeout | undefined;
  private lostConnection = false;
  private zeroTrustedAt = 0;
  /** The RPC exchange is known to exist on this connection (exchanges are never deleted by Payrail). */
  private exchangeSeen = false;
  private exchangeCheck: Promise<boolean> | undefined;

  constructor(private readonly options: AmqpRpcClientOptions) {
    this.probe = new QueueProbe(options.logger);
  }

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
    this.zeroTrustedAt = this.lostConnection ? Date.now() + RECONNECT_GRACE_MS : 0;
    this.probe.attach(model);
    this.exchangeCheck = undefined;
    // Asked now, so that calls on a broker whose servers have run go out without a round trip more.
    this.exchangeSeen = false;
    await this.exchangeExists();
    clearInterval(this.watch);
    this.watch = setInterval(() => this.checkPendingServices(), 1_000).unref();
    for (const [id, call] of this.pending) if (call.resend) this.send(id, call.resend.queue, call.resend.body, call.resend.deadline);
  }

  /**
   * The connection is gone: calls in flight can no longer get their reply. Those that run at
   * most once wait for the next `attach` unless `final` (the transport is closing).
   */
  detach(reason: string, final = false): void {
    this.channel = undefined;
    this.lostConnection = true;
    this.probe.detach();
    clearInterval(this.watch);
    this.watch = undefined;
    for (const [id, call] of this.pending) {
      if (call.resend && !final) continue;
      this.pending.delete(id);
      clearTimeout(call.timer);
      call.reject(serviceUnavailable(`message broker connection lost (${reason})`, this.options.retryAfterSeconds()));
    }
  }

  call(operation: Operation, payload: unknown, ctx: CallContext, timeoutMs: number, options: CallOptions = {}): Promise<unknown> {
    if (!this.channel) return Promise.reject(serviceUnavailable("message broker unavailable", this.options.retryAfterSeconds()));
    let body: Buffer;
    try {
      // Encoded now: the deadline counts from the call, not from when the probe answered.
      body = Buffer.from(encodeRequest(operation, payload, ctx, timeoutMs, options));
    } catch (err) {
      return Promise.reject(err);
    }
    const queue = this.options.queueOf(operation.service);
    const correlationId = this.idPrefix + (++this.sequence).toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(serviceTimeout(operation.pattern, timeoutMs));
      }, timeoutMs);
      const deadline = Date.now() + timeoutMs;
      const resend = runsOnce(ctx, options) ? { queue, body, deadline } : undefined;
      this.pending.set(correlationId, { service: operation.service, timer, resolve, reject, onReplayed: options.onReplayed, asJsonText: options.asJsonText === true, resend });
      const publish = (consumers: number) => {
        if (this.servedByNobody(consumers)) this.settle(correlationId, nobodyServes(operation.service));
        else this.send(correlationId, queue, body, deadline);
      };
      const routed = (): void => {
        const known = this.consumersOf(queue, correlationId, operation.service);
        if (typeof known === "number") publish(known);
        else void known.then(publish);
      };
      if (this.exchangeSeen) return routed();
      const checkExchange = (): void =>
        void this.exchangeExists().then((exists) => {
          if (exists) return routed();
          // Just reconnected: the servers may be declaring it again (a broker restarted empty).
          if (!this.servedByNobody(0)) return void setTimeout(checkExchange, EXCHANGE_RECHECK_MS);
          this.settle(correlationId, nobodyServes(operation.service));
        });
      checkExchange();
    });
  }

  /** Publishes a pending call's request; one that may be sent again waits for the next connection instead of failing. */
  private send(id: string, queue: string, body: Buffer, deadline: number): void {
    const call = this.pending.get(id);
    if (!call) return;
    const unavailable = () => call.resend || this.settle(id, serviceUnavailable("message broker unavailable", this.options.retryAfterSeconds()));
    const channel = this.channel;
    if (!channel) return void unavailable();
    try {
      channel.publish(this.options.exchange, queue, body, {
        correlationId: id,
        replyTo: this.replyTo,
        // What is left of the caller's time: a request resent late expires as early as the first.
        expiration: String(Math.max(1, deadline - Date.now())),
        mandatory: true,
        contentType: "application/json",
        ...(this.options.userId === undefined ? {} : { userId: this.options.userId }),
      });
    } catch {
      // The channel closed under us (amqplib throws IllegalOperationError).
      unavailable();
    }
  }

  /**
   * The queue's consumer count as far as it matters before sending: a fresh answer as is; a
   * stale zero is asked again first (do not send into a queue nobody served); otherwise the call
   * goes out at once while the count is refreshed behind it, and is failed if that says zero.
   */
  private consumersOf(queue: string, correlationId: string, service: string): number | Promise<number> {
    const fresh = this.probe.fresh(queue);
    if (fresh !== undefined) return fresh;
    const last = this.probe.last(queue);
    if (last === 0) return this.probe.refresh(queue);
    // Unknown or stale: send now, and fail the call as soon as the broker says nobody serves it.
    void this.probe.refresh(queue).then((consumers) => this.servedByNobody(consumers) && this.settle(correlationId, nobodyServes(service)));
    return last ?? Number.POSITIVE_INFINITY;
  }

  /** Asks (one check at a time) whether a server has declared the RPC exchange; a failed check is not a no. */
  private exchangeExists(): Promise<boolean> {
    return (this.exchangeCheck ??= this.probe.exchangeExists(this.options.exchange).then(
      (exists) => {
        this.exchangeCheck = undefined;
        if (exists) this.exchangeSeen = true;
        return exists;
      },
      () => {
        this.exchangeCheck = undefined;
        return true;
      },
    ));
  }

  /** Calls waiting on a service that lost its last consumer will get no reply: fail them now. */
  private checkPendingServices(): void {
    const services = new Set<string>();
    for (const call of this.pending.values()) services.add(call.service);
    for (const service of services) {
      void this.probe.refresh(this.options.queueOf(service)).then((consumers) => {
        if (!this.servedByNobody(consumers)) return;
        for (const [id, call] of this.pending) if (call.service === service) this.settle(id, nobodyServes(service));
      });
    }
  }

  /** A zero count means nobody serves the queue, unless the servers may still be reconnecting. */
  private servedByNobody(consumers: number): boolean {
    return consumers === 0 && Date.now() >= this.zeroTrustedAt;
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
      const value = decodeReplyMessage(message.content, message.properties.type, call.asJsonText, call.onReplayed);
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
    this.settle(id, nobodyServes(call.service));
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

function nobodyServes(service: string) {
  return serviceUnavailable(`service ${service} is not running`);
}
