import { z } from "zod";

/** Stripe's bounds, so a merchant's existing metadata fits as it is. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_LENGTH = 500;

/**
 * A merchant's own key–value pairs on a checkout (`metadata`, as Stripe has it): stored and
 * echoed by Get Checkout, the list and the checkout events. Other unknown top-level keys stay
 * accepted and ignored (docs/api-notes.md, Requests), so this is the one place a merchant's own data is kept.
 */
export const Metadata = z
  .record(z.string(), z.string({ error: "must be a string" }).max(METADATA_MAX_VALUE_LENGTH, `must be at most ${METADATA_MAX_VALUE_LENGTH} characters`))
  .superRefine((value, ctx) => {
    const keys = Object.keys(value);
    if (keys.length > METADATA_MAX_KEYS) {
      ctx.addIssue({ code: "custom", message: `must have at most ${METADATA_MAX_KEYS} keys (it has ${keys.length})` });
    }
    const long = keys.find((key) => key.length === 0 || key.length > METADATA_MAX_KEY_LENGTH);
    if (long !== undefined) {
      ctx.addIssue({ code: "custom", path: [long], message: `must have a key of 1 to ${METADATA_MAX_KEY_LENGTH} characters` });
    }
  })
  .meta({
    description: `Your own key–value pairs, echoed as sent: at most ${METADATA_MAX_KEYS} keys of 1–${METADATA_MAX_KEY_LENGTH} characters, string values of at most ${METADATA_MAX_VALUE_LENGTH} characters.`,
    maxProperties: METADATA_MAX_KEYS,
  });
export type Metadata = z.infer<typeof Metadata>;
