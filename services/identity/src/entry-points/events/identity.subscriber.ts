import type { EventTransport, SubscribeOptions } from "@payrail/messaging";
import type { ConsumerMerchantsPort } from "../../domain/ports/consumer-merchants.port.ts";

/** The events identity follows. */
export const IDENTITY_SUBSCRIPTIONS = ["payment_method.saved"] as const;

/**
 * Identity's event entry point (queue `identity.events`): a consumer saved a bank account on a
 * merchant's checkout, so that merchant may read the consumer's sandbox codes (docs/api-notes.md, Limits).
 * Recording the pair is an insert keyed by it, so repeated and reordered events are harmless
 * without remembering event ids; events written before `user_id` was added are skipped.
 */
export async function subscribeIdentityEvents(transport: EventTransport, consumerMerchants: ConsumerMerchantsPort, options?: SubscribeOptions): Promise<void> {
  await transport.subscribe("identity", IDENTITY_SUBSCRIPTIONS, async (event) => {
    if (event.type !== "payment_method.saved") return;
    const userId = event.data.object.user_id;
    if (userId) await consumerMerchants.add(userId, event.merchant_id, event.created_at);
  }, options);
}
