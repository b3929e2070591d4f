import { z } from "zod";
import { SendCodeResponse } from "../../http/consumer.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Send Code (spec 4): texts a new 6-digit code to the phone, replacing any earlier one. The
 * phone is normalised to E.164 by identity (400 `invalid_phone_number`); resends are limited
 * per phone (429 `rate_limited` with `retryAfter`). Needs no credential.
 */
export const sendCodeOp = defineOperation(
  "identity.sendCode",
  z.object({ phone: z.string().min(1).max(64) }),
  SendCodeResponse,
);
