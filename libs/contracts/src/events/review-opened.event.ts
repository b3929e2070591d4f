import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { ReviewSnapshot } from "./event-snapshots.ts";

/** A risk rule flagged a debit: it is held (not sent to the provider) until the merchant decides. Published by payments. */
export const ReviewOpenedEvent = defineEvent("review.opened", "review", ReviewSnapshot);
export type ReviewOpenedEvent = z.infer<typeof ReviewOpenedEvent>;
