import { z } from "zod";
import { OperatorList } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The merchant's operators, oldest first. Admin only; an unknown merchant is 404 `merchant_not_found`. */
export const listOperatorsOp = defineOperation("identity.listOperators", z.object({ merchant_id: z.string().min(1).max(64) }), OperatorList);
