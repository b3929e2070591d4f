import type { HandlerTable } from "../rpc/handler-table.ts";

/**
 * One `serve()` of one transport: runs a JSON request message and returns the JSON reply, or
 * null when the request was skipped because its deadline had passed (no reply, as over a broker).
 */
export interface InProcessServer {
  readonly service: string;
  readonly table: HandlerTable;
  run(message: unknown): Promise<string | null>;
}

/**
 * What the broker is to AMQP transports: the place where in-process transports find each
 * other's services. Several servers of one service share calls round-robin, like several
 * consumers on one queue.
 */
export class InProcessBus {
  private readonly servers = new Map<string, InProcessServer[]>();
  private readonly cursors = new Map<string, number>();

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
}

/** Creates a bus; transports created without one get a private bus of their own. */
export function createInProcessBus(): InProcessBus {
  return new InProcessBus();
}
