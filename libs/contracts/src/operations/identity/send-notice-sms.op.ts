import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (notices, on its own account): sends a notice's text to the consumer's verified
 * phone through identity's SMS provider, so the number stays in identity.
 * `invalid_phone_number` or `provider_error` when the provider refuses.
 */
export const sendNoticeSmsOp = defineOperation(
  "identity.sendNoticeSms",
  z.object({ user_id: z.string().min(1).max(64), text: z.string().min(1).max(1600) }),
  z.object({ message_id: z.string() }),
);
