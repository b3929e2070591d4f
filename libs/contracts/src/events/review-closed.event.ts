import type { z } from "zod";
import { defineEvent } from "./domain-event.ts";
import { ReviewSnapshot } from "./event-snapshots.ts";

/** A held debit was approved (and sent), cancelled, or expired: the review's `status` says which. Published by payments. */
export const ReviewClosedEvent = defineEvent("review.closed", "review", ReviewSnapshot);
export type ReviewClosedEvent = z.infer<typeof ReviewClosedEvent>;
