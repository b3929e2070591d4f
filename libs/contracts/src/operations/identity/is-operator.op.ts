import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Internal (refunds → identity): whether the user with this (E.164) phone is an operator of
 * the merchant. Service principals only.
 */
export const isOperatorOp = defineOperation(
  "identity.isOperator",
  z.object({ merchant_id: z.string().min(1).max(64), phone: z.string().min(1).max(64) }),
  z.object({ operator: z.boolean() }),
  { reads: true },
);
