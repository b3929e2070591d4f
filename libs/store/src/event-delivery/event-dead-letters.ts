import { createHash } from "node:crypto";
import type { IndexSpec, Store } from "../store.port.ts";

/** The collection where events given up on are kept, by every subscriber and outbox relay. */
export const EVENT_DEAD_LETTERS = "event_dead_letters";
/** The listing's and the replay poll's index, and the one that finds an event's letters. */
export const EVENT_DEAD_LETTER_INDEXES: readonly IndexSpec[] = [
  { keys: { status: 1, service: 1, deadAt: 1 }, name: "dead_letters_status" },
  { keys: { eventId: 1 }, name: "dead_letters_event" },
];

/** `dead` until an operator asks for a replay; the subscriber then re-sends it and marks it `replayed`. */
export type DeadLetterStatus = "dead" | "replay_requested" | "replayed";

/** One event given up on by one subscriber (or relay), as an operator lists it. */
export interface EventDeadLetter {
  /** `<service>/<event id>`: one record per subscriber and event; a second death overwrites the first. */
  _id: string;
  /** The subscribing service, or `outbox:<collection>` for an event its relay could never publish. */
  service: string;
  eventId: string | null;
  type: string | null;
  /** The handler's message, or why the message is not a valid event (never a stack). */
  reason: string;
  attempts: number;
  /** The message as published (JSON text), re-sent as is by a replay. */
  body: string;
  /** The broker user that published it, when known: a replay names it again, so the sender check judges the original. */
  sender?: string | null;
  /** ISO 8601: when it was (last) dead-lettered. */
  deadAt: string;
  status: DeadLetterStatus;
  replayRequestedAt?: string;
  replayedAt?: string;
}

/** What a subscriber knows when it gives up on a message. */
export interface DeadLetterInput {
  service: string;
  eventId: string | undefined;
  type: string | undefined;
  reason: string;
  attempts: number;
  body: string;
  sender?: string | undefined;
}

/**
 * The dead letters of every subscriber, in one collection of the shared store, so that the CLI
 * lists and replays them the same way in embedded mode and on RabbitMQ + MongoDB. Structurally
 * libs/messaging's `EventDeadLetterStore` (libs/store imports no messaging types).
 *
 * Every change is one write: `put` upserts by `<service>/<event id>`; a replay request moves
 * `dead` → `replay_requested`, and the subscriber that re-sent the event moves it on to
 * `replayed`. One index, `status` then `service` then `deadAt`, serves the listing (by status,
 * oldest first), the subscriber's poll for replay requests (status and service) and the CLI's
 * `--service`.
 */
export async function createEventDeadLetters(store: Store) {
  const letters = store.collection<EventDeadLetter>(EVENT_DEAD_LETTERS);
  for (const index of EVENT_DEAD_LETTER_INDEXES) await letters.createIndex(index);

  return {
    async put(input: DeadLetterInput, now = new Date()): Promise<void> {
      const _id = `${input.service}/${input.eventId ?? `invalid-${createHash("sha256").update(input.body).digest("hex").slice(0, 32)}`}`;
      await letters.findOneAndUpdate(
        { _id },
        {
          $set: {
            service: input.service,
            eventId: input.eventId ?? null,
            type: input.type ?? null,
            reason: input.reason,
            attempts: input.attempts,
            body: input.body,
            sender: input.sender ?? null,
            deadAt: now.toISOString(),
            status: "dead",
          },
          $unset: { replayRequestedAt: "", replayedAt: "" },
        },
        { upsert: true },
      );
    },

    /** Dead letters in `status` (default `dead`), oldest first, optionally of one service or event. */
    list(options: { status?: DeadLetterStatus; service?: string; eventId?: string; limit?: number } = {}): Promise<EventDeadLetter[]> {
      const { status = "dead", service, eventId, limit = 100 } = options;
      if (eventId !== undefined) {
        return letters.find({ eventId, status, ...(service === undefined ? {} : { service }) }, { sort: { deadAt: 1 }, limit });
      }
      return letters.find({ status, ...(service === undefined ? {} : { service }) }, { sort: { deadAt: 1 }, limit });
    },

    /** Asks for a replay of one dead letter (a conditional write: only a `dead` one moves). */
    async requestReplay(id: string, now = new Date()): Promise<boolean> {
      const moved = await letters.findOneAndUpdate({ _id: id, status: "dead" }, { $set: { status: "replay_requested", replayRequestedAt: now.toISOString() } });
      return moved !== null;
    },

    /** The replay requests of one subscribing service, oldest first (its subscriber polls these). */
    replayRequests(service: string, limit = 100): Promise<{ key: string; body: string; sender?: string }[]> {
      return letters
        .find({ status: "replay_requested", service }, { sort: { deadAt: 1 }, limit })
        .then((found) => found.map((letter) => ({ key: letter._id, body: letter.body, ...(letter.sender ? { sender: letter.sender } : {}) })));
    },

    /** The subscriber re-sent it: `replay_requested` → `replayed` (a repeat changes nothing). */
    async markReplayed(key: string, now = new Date()): Promise<boolean> {
      const moved = await letters.findOneAndUpdate({ _id: key, status: "replay_requested" }, { $set: { status: "replayed", replayedAt: now.toISOString() } });
      return moved !== null;
    },
  };
}

export type EventDeadLetters = Awaited<ReturnType<typeof createEventDeadLetters>>;
