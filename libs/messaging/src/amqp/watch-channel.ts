import type { Channel } from "amqplib";
import type { Logger } from "@payrail/runtime";

/**
 * Listens to a channel's 'error' and 'close'. amqplib closes every channel just before it
 * emits the connection's 'close', so `onClose` runs one tick later: by then a lost connection
 * has been reported and the owner can tell a channel that died alone (recycle the connection)
 * from one that went down with it (nothing to do).
 */
export function watchChannel(channel: Channel, role: string, logger: Logger, onClose: () => void): void {
  channel.on("error", (err: Error) => logger.warn({ role, err: err.message }, "AMQP channel error"));
  channel.on("close", () => setImmediate(onClose));
}
