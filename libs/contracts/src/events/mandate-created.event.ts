import type { z } from "zod";
import { Mandate } from "../http/mandate.schema.ts";
import { defineEvent } from "./domain-event.ts";

/** A consumer accepted the debit authorization, or the merchant attested one at the first debit. Published by payments. */
export const MandateCreatedEvent = defineEvent("mandate.created", "mandate", Mandate.partial({ validation: true }));
export type MandateCreatedEvent = z.infer<typeof MandateCreatedEvent>;
