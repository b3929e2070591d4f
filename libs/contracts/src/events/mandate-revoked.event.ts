import type { z } from "zod";
import { Mandate } from "../http/mandate.schema.ts";
import { defineEvent } from "./domain-event.ts";

/** The mandate no longer authorizes debits (its subscription was cancelled). Published by payments. */
export const MandateRevokedEvent = defineEvent("mandate.revoked", "mandate", Mandate.partial({ validation: true }));
export type MandateRevokedEvent = z.infer<typeof MandateRevokedEvent>;
