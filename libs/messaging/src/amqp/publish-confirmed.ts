import type { ConfirmChannel, Options } from "amqplib";
import { AppError } from "@payrail/contracts";
import { serviceUnavailable } from "../rpc/rpc-errors.ts";

/**
 * Publishes on a confirm channel and resolves when the broker confirms it: by then a persistent
 * message is on disk in every queue it was routed to (or routed nowhere). Rejects with
 * `service_unavailable` when the broker nacks it or the channel closes first, and with
 * `service_timeout` when no confirm comes within `timeoutMs` (a blocked broker): in each case
 * the message may or may not have been taken, and the caller may publish it again.
 */
export function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  body: Buffer,
  options: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new AppError("service_timeout", `the broker did not confirm within ${timeoutMs} ms`, { retryAfter: 1 })), timeoutMs);
    const settle = (err: Error | null) => {
      clearTimeout(timer);
      if (err) reject(serviceUnavailable(`the broker did not take the message (${err.message})`));
      else resolve();
    };
    try {
      channel.publish(exchange, routingKey, body, options, settle);
    } catch (err) {
      // The channel closed under us (amqplib throws IllegalOperationError).
      settle(err as Error);
    }
  });
}
