import type { z } from "zod";
import { Payout } from "../http/payouts.schema.ts";
import { defineEvent } from "./domain-event.ts";

/** A payout was made: its amount left the balance and its transfer is being sent. Published by the ledger. */
export const PayoutCreatedEvent = defineEvent("payout.created", "payout", Payout);
export type PayoutCreatedEvent = z.infer<typeof PayoutCreatedEvent>;

/** The payout's transfer settled: the money is at the merchant's bank. */
export const PayoutPaidEvent = defineEvent("payout.paid", "payout", Payout);
export type PayoutPaidEvent = z.infer<typeof PayoutPaidEvent>;

/** The payout's transfer failed or was refused: its amount is back in the balance (the next payout carries it). */
export const PayoutFailedEvent = defineEvent("payout.failed", "payout", Payout);
export type PayoutFailedEvent = z.infer<typeof PayoutFailedEvent>;
