/** One event a subscriber gave up on, as it is recorded. */
export interface DeadLetterRecord {
  /** The subscribing service. */
  service: string;
  /** The event's id and type, when the message had them. */
  eventId: string | undefined;
  type: string | undefined;
  /** The handler's message, or why the message is not a valid event; never a stack. */
  reason: string;
  /** Attempts made. */
  attempts: number;
  /** The message as published. */
  body: string;
  /** The broker user that published the original, when the transport knows it (a replay names it again). */
  sender?: string | undefined;
}

/**
 * Where subscribers keep the events they gave up on, so that an operator lists and replays
 * them (`payrail events dead-letters`, `payrail events replay`) whichever transport runs.
 * Implemented over the shared store by libs/store (`createEventDeadLetters`); libs/messaging
 * holds only the port, as it imports no database driver.
 */
export interface EventDeadLetterStore {
  /** Records (or records again) a dead letter of `service`; one record per service and event. */
  put(letter: DeadLetterRecord): Promise<void>;
  /** Dead letters of `service` an operator asked to replay, oldest first. */
  replayRequests(service: string, limit?: number): Promise<{ key: string; body: string; sender?: string }[]>;
  /** The subscriber re-sent it; a second call changes nothing. */
  markReplayed(key: string): Promise<boolean>;
}

/** An event kept for one subscribing service until it is handled. */
export interface StoredDelivery {
  eventId: string;
  body: string;
  /** The attempt its next delivery is. */
  attempt: number;
  /** Epoch ms of its first failure, once it failed. */
  firstFailedAt?: number | undefined;
}

/**
 * Embedded mode's stand-in for RabbitMQ's durable queues: the in-process bus writes each event
 * here for every bound service before `publish` resolves, and removes it once that service
 * handled it (or dead-lettered it), so an event the outbox relay saw "published" survives a
 * crash before it was handled. Bindings are kept too, so that after a restart events published
 * before a service subscribed again still wait for it. Implemented by libs/store
 * (`createEventQueues`).
 */
export interface DurableEventQueues {
  bindings(): Promise<{ service: string; patterns: string[] }[]>;
  bind(service: string, patterns: readonly string[]): Promise<void>;
  /**
   * Keeps the event for each service; a repeat of the same service and event keeps one. `retry`:
   * it was handed over and failed already (the in-process bus's handoff), so it is kept with its
   * next attempt and first failure.
   */
  enqueue(services: readonly string[], eventId: string, body: string, retry?: { attempt: number; firstFailedAt: number }): Promise<void>;
  /** What `service` has not handled yet, oldest first. */
  pending(service: string): Promise<StoredDelivery[]>;
  /** Records a failed attempt, so a restart keeps counting the retry window from the first failure. */
  retryLater(service: string, eventId: string, attempt: number, firstFailedAt: number): Promise<void>;
  /** Handled or dead-lettered: forgotten. */
  remove(service: string, eventId: string): Promise<void>;
}

/** What `Transport.useEventStores` takes: dead letters always; durable queues in embedded mode. */
export interface EventStores {
  deadLetters: EventDeadLetterStore;
  /** Used by the in-process transport only; the broker's queues are durable already. */
  queues?: DurableEventQueues;
}
