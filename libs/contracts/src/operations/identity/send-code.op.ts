import { z } from "zod";
import { SendCodeResponse } from "../../http/consumer.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Send Code (spec 4): texts a new 6-digit code to the phone, replacing any earlier one. The
 * phone is normalised to E.164 by identity (400 `invalid_phone_number`); resends are limited
 * per phone, per client address and in total (429 `rate_limited` with `retryAfter`,
 * docs/api-notes.md, Limits). Needs no credential. `client_address` is the caller's address as the gateway decided it
 * (TRUST_PROXY), never a value from the body.
 */
export const sendCodeOp = defineOperation(
  "identity.sendCode",
  z.object({ phone: z.string().min(1).max(64), client_address: z.string().max(64).optional() }),
  SendCodeResponse,
);
