import { EVENT_DEAD_LETTER_INDEXES } from "@payrail/store";
import type { CheckContext, Divergence } from "./divergence.ts";

type DeadLetter = { _id: string; service: string; eventId: string | null; type: string | null; reason: string; deadAt: string; status: string };

/** Every event a subscriber or relay gave up on and nobody replayed: something it should have applied was not. */
export async function checkDeadLetters(ctx: CheckContext, report: (d: Divergence) => void): Promise<void> {
  const letters = ctx.store.collection<DeadLetter>("event_dead_letters");
  // The dead-letter store's own index (status, service, deadAt) serves this.
  await letters.createIndex(EVENT_DEAD_LETTER_INDEXES[0]!);
  for (const letter of await letters.find({ status: "dead" }, { sort: { status: 1, service: 1, deadAt: 1 }, limit: 1_000 })) {
    report({ kind: "event_dead_lettered", id: letter.eventId ?? letter._id, detail: `${letter.type ?? "a message"} given up on by ${letter.service} at ${letter.deadAt}: ${letter.reason}` });
  }
}
