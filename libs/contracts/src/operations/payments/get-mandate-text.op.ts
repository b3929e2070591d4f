import { z } from "zod";
import { MandateText } from "../../http/mandate.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * The mandate text for a checkout (docs/api-notes.md, Mandates), for the consumer about to link a bank account:
 * the same credentials as Create Link Token (auth token, and the merchant link token of this
 * checkout), so a merchant-built page can show the same words the hosted page shows.
 */
export const getMandateTextOp = defineOperation(
  "payments.getMandateText",
  z.object({ checkout_id: z.string().min(1).max(64), link_token: z.string().min(1).max(512) }),
  MandateText,
);
