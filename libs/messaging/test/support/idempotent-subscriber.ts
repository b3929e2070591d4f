import { setTimeout as sleep } from "node:timers/promises";
import type { AnyDomainEvent } from "@payrail/contracts";
import { EventCannotApply, type EventDelivery, type EventHandler } from "../../src/index.ts";

export interface SubscriberBehaviour {
  /** Throw on this delivery (a handler whose write failed). */
  failWhen?(event: AnyDomainEvent, delivery: EventDelivery): boolean;
  /** Time each delivery takes, so that some are in flight when a test pulls the plug. */
  delayMs?: number;
  /** The failure says the event can never apply (`EventCannotApply`), not that it may pass. */
  cannotApply?: boolean;
}

/**
 * A subscriber as docs/architecture.md asks for: it remembers the ids of the events it processed
 * (one Set shared by the service's replicas, as their collection would be) and applies an event
 * only the first time it sees it. `effects` is what was applied, in order; everything else is
 * what the transport delivered, for assertions.
 */
export class IdempotentSubscriber {
  readonly processed = new Set<string>();
  readonly effects: string[] = [];
  readonly deliveriesByReplica = new Map<string, number>();
  readonly attemptsById = new Map<string, number[]>();
  /** Times each attempt of each event started (ms since epoch), by id. */
  readonly startedAtById = new Map<string, number[]>();
  deliveries = 0;

  constructor(private readonly behaviour: SubscriberBehaviour = {}) {}

  /** The handler of one replica of the service. */
  handler(replica = "a"): EventHandler {
    return async (event, delivery) => {
      this.deliveries += 1;
      this.deliveriesByReplica.set(replica, (this.deliveriesByReplica.get(replica) ?? 0) + 1);
      push(this.attemptsById, event.id, delivery.attempt);
      push(this.startedAtById, event.id, Date.now());
      if (this.behaviour.delayMs) await sleep(this.behaviour.delayMs);
      if (this.behaviour.failWhen?.(event, delivery)) {
        const message = `cannot apply ${event.id}: the ledger rejected it`;
        throw this.behaviour.cannotApply ? new EventCannotApply(message) : new Error(message);
      }
      if (this.processed.has(event.id)) return; // a duplicate: already applied
      this.processed.add(event.id);
      this.effects.push(event.id);
    };
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}
