import type { RpcReplyEnvelope, RpcRequestEnvelope } from "@payrail/contracts";
import type { DeadLetteredEvent } from "../events.port.ts";
import type { EventStores } from "../events/event-stores.port.ts";
import type { HandlerTable } from "../rpc/handler-table.ts";
import { InProcessEventQueue } from "./in-process-event.queue.ts";

/**
 * One `serve()` of one transport: runs a request envelope and returns the reply envelope, or
 * null when the request was skipped because its deadline had passed (no reply, as over a broker).
 */
export interface InProcessServer {
  readonly service: string;
  readonly table: HandlerTable;
  /** `mayRepeat`: the call may come again under the same key (see the transport), so it goes through the reply ledger. */
  run(envelope: RpcRequestEnvelope, mayRepeat: boolean): Promise<RpcReplyEnvelope | null>;
}

/**
 * What the broker is to AMQP transports: the place where in-process transports find each
 * other's services and event queues. Several servers of one service share calls round-robin,
 * like several consumers on one queue. Event queues live as long as the bus (in memory).
 */
export class InProcessBus {
  private readonly servers = new Map<string, InProcessServer[]>();
  private readonly cursors = new Map<string, number>();
  private readonly eventQueues = new Map<string, InProcessEventQueue>();
  /** Where the bus keeps its queues and dead letters across a crash (`useEventStores`); unset: memory only. */
  stores: EventStores | undefined;

  /**
   * Keeps queued events and dead letters in `stores` from now on, and binds again the queues
   * of every service that subscribed before a restart, so events published before it
   * subscribes again wait for it (as on a broker, whose queues and bindings are durable).
   */
  async useEventStores(stores: EventStores): Promise<void> {
    if (this.stores) return;
    this.stores = stores;
    for (const { service, patterns } of (await stores.queues?.bindings()) ?? []) this.eventQueue(service).bind(patterns);
  }

  add(server: InProcessServer): void {
    const list = this.servers.get(server.service) ?? [];
    this.servers.set(server.service, [...list, server]);
  }

  remove(server: InProcessServer): void {
    const list = (this.servers.get(server.service) ?? []).filter((s) => s !== server);
    if (list.length > 0) this.servers.set(server.service, list);
    else this.servers.delete(server.service);
  }

  /** The next server of `service`, or undefined when nobody serves it. */
  pick(service: string): InProcessServer | undefined {
    const list = this.servers.get(service);
    if (!list || list.length === 0) return undefined;
    const cursor = (this.cursors.get(service) ?? 0) % list.length;
    this.cursors.set(service, cursor + 1);
    return list[cursor];
  }

  /** The event queue of a subscribing service, created on its first subscribe(). */
  eventQueue(service: string): InProcessEventQueue {
    let queue = this.eventQueues.get(service);
    if (!queue) this.eventQueues.set(service, (queue = new InProcessEventQueue(service)));
    return queue;
  }

  /** The queues an event of this type is routed to. */
  eventQueuesBoundTo(type: string): InProcessEventQueue[] {
    return [...this.eventQueues.values()].filter((queue) => queue.isBoundTo(type));
  }

  /** The events `service` gave up on, with their reasons (for tests and operators). */
  deadLetters(service: string): readonly DeadLetteredEvent[] {
    return this.eventQueues.get(service)?.deadLetters ?? [];
  }
}

/** Creates a bus; transports created without one get a private bus of their own. */
export function createInProcessBus(): InProcessBus {
  return new InProcessBus();
}
