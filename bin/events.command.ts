import type { DeadLetterStatus, EventDeadLetters } from "@payrail/store";
import { type Command, InvalidArgumentError } from "commander";

const eventId = (value: string) => {
  if (!/^evt_[0-9a-f]{32}$/.test(value)) throw new InvalidArgumentError("an event id is evt_ and 32 lowercase hex characters");
  return value;
};
const service = (value: string) => {
  if (!/^(outbox:)?[a-z][a-z0-9_-]*$/.test(value)) throw new InvalidArgumentError("a subscribing service name (checkout, refunds, webhooks…)");
  return value;
};
const status = (value: string) => {
  if (!["dead", "replay_requested", "replayed"].includes(value)) throw new InvalidArgumentError("dead, replay_requested or replayed");
  return value as DeadLetterStatus;
};
const limit = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError("a whole number from 1 to 1000");
  return n;
};

/**
 * `payrail events dead-letters|replay`. Dead letters live in the store (`event_dead_letters`),
 * written by the subscribers of either transport, so both commands open the store: the embedded
 * one (also beside a running `payrail start`) or MONGODB_URL's. A replay only asks: it marks
 * the dead letters `replay_requested`, and each subscribing service re-sends its own into its
 * queue within seconds (embedded mode with no process running: when Payrail next starts), so the event reaches its
 * subscriber as any other delivery would, through the same checks.
 */
export function defineCommand(events: Command): void {
  events
    .command("dead-letters")
    .description("list dead-lettered events, oldest first: service, event id, type, reason, when")
    .option("--service <name>", "only this subscribing service's", service)
    .option("--status <status>", "dead (default), replay_requested or replayed", status, "dead")
    .option("--limit <n>", "how many (1-1000)", limit, 100)
    .action((o: { service?: string; status: DeadLetterStatus; limit: number }) =>
      withDeadLetters(async (letters) => {
        const found = await letters.list({ status: o.status, limit: o.limit, ...(o.service ? { service: o.service } : {}) });
        if (found.length === 0) console.log(`no ${o.status} events${o.service ? ` for ${o.service}` : ""}`);
        for (const l of found) console.log(`${l.service}  ${l.eventId ?? "-"}  ${l.type ?? "-"}  ${l.deadAt}  ${l.reason}`);
      }),
    );

  events
    .command("replay")
    .description("send dead-lettered events to their subscriber again (all of them, or by --id / --service)")
    .option("--id <event id>", "evt_…", eventId)
    .option("--service <name>", "only this subscribing service's", service)
    .action((o: { id?: string; service?: string }) =>
      withDeadLetters(async (letters, untilStart) => {
        let asked = 0;
        for (let more = true; more; ) {
          const batch = await letters.list({ limit: 200, ...(o.id ? { eventId: o.id } : {}), ...(o.service ? { service: o.service } : {}) });
          for (const letter of batch) {
            if (letter.service.startsWith("outbox:")) {
              console.log(`${letter.service}  ${letter.eventId ?? "-"}: refused at publish; not replayable (fix the publisher)`);
              continue;
            }
            if (await letters.requestReplay(letter._id)) {
              asked += 1;
              console.log(`${letter.service}  ${letter.eventId ?? "-"}  ${letter.type ?? "-"}: replay requested`);
            }
          }
          more = batch.length === 200 && batch.some((l) => !l.service.startsWith("outbox:"));
        }
        if (asked === 0) console.log("no dead letter matched");
        else console.log(untilStart ? `${asked} queued: delivered when Payrail next starts` : `${asked} queued: each subscribing service re-sends its own within seconds`);
      }),
    );
}

/** The store is opened, and its driver loaded, only when a command runs (dead-letters.ts). */
async function withDeadLetters(work: (letters: EventDeadLetters, untilStart: boolean) => Promise<void>): Promise<void> {
  return (await import("./dead-letters.ts")).withDeadLetters(work);
}
