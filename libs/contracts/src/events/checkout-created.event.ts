import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { CheckoutSnapshot } from "./event-snapshots.ts";

/** A merchant created a checkout (Create Checkout); status `open`. Published by checkout. */
export const CheckoutCreatedEvent = defineEvent("checkout.created", "checkout", CheckoutSnapshot);
export type CheckoutCreatedEvent = z.infer<typeof CheckoutCreatedEvent>;
