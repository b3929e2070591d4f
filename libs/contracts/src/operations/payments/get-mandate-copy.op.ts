import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (notices, on its own account): the words of a mandate exactly as the consumer
 * accepted them (null for a `merchant_attested` one), the consumer it binds and its first debit.
 */
export const getMandateCopyOp = defineOperation(
  "payments.getMandateCopy",
  z.object({ mandate_id: z.string().min(1).max(64) }),
  z.object({
    mandate_id: z.string(),
    checkout_id: z.string(),
    merchant_id: z.string(),
    user_id: z.string(),
    type: z.string(),
    text: z.string().nullable(),
    first_debit_on: z.string(),
  }),
  { reads: true },
);
