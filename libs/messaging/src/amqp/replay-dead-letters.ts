import type { ConfirmChannel, Options } from "amqplib";
import type { Logger } from "@payrail/runtime";
import type { EventDeadLetterStore } from "../events/event-stores.port.ts";
import { idAndType } from "../events/id-and-type.ts";
import { EVENT_HEADERS } from "./event-topology.ts";
import { publishConfirmed } from "./publish-confirmed.ts";

/**
 * Sends the dead letters an operator asked to replay (`payrail events replay`) back into the
 * service's own main queue as fresh messages (attempt 1, a new retry window; sent as this
 * service's broker user, naming the original publisher as the sender check expects), each confirmed by
 * the broker before it is marked replayed: a crash in between sends it twice, never loses it.
 * Throws when the store or the broker fails; the caller polls again later.
 */
export async function replayDeadLetters(
  channel: ConfirmChannel,
  mainQueue: string,
  service: string,
  deadLetters: EventDeadLetterStore,
  confirmTimeoutMs: number,
  logger: Logger,
  /** This connection's broker user: the copy goes out as it, naming the original's sender in a header. */
  userId: string | undefined,
): Promise<void> {
  for (const { key, body, sender } of await deadLetters.replayRequests(service)) {
    const { id } = idAndType(body);
    const properties: Options.Publish = {
      persistent: true,
      contentType: "application/json",
      ...(id ? { messageId: id } : {}),
      ...(userId === undefined ? {} : { userId }),
      ...(sender === undefined ? {} : { headers: { [EVENT_HEADERS.sender]: sender } }),
    };
    await publishConfirmed(channel, "", mainQueue, Buffer.from(body), properties, confirmTimeoutMs);
    await deadLetters.markReplayed(key);
    logger.info({ service, eventId: id }, "dead letter replayed");
  }
}
