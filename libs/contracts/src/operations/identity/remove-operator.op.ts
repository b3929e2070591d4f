import { z } from "zod";
import { RemovedOperator } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Removes an operator of the merchant: from the next request on, their auth token may no
 * longer act on its refunds (nothing caches operators). Admin only; an unknown merchant is 404
 * `merchant_not_found`, a phone that is not its operator 404 `operator_not_found`.
 */
export const removeOperatorOp = defineOperation(
  "identity.removeOperator",
  z.object({ merchant_id: z.string().min(1).max(64), phone: z.string().min(1).max(64) }),
  RemovedOperator,
);
