import { z } from "zod";
import { AddOperatorBody, OperatorView } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Registers the user with this phone (normalised to E.164) as an operator of the merchant:
 * their auth token may then decide and pay out the merchant's refunds (docs/api-notes.md, Credentials). Idempotent.
 * Admin only; an unknown merchant is 404 `merchant_not_found`.
 */
export const addOperatorOp = defineOperation(
  "identity.addOperator",
  AddOperatorBody.extend({ merchant_id: z.string().min(1).max(64) }),
  OperatorView,
);
