import { z } from "zod";
import { Mandate } from "../../http/mandate.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** One mandate, to the merchant of its checkout (another merchant's: 404 `mandate_not_found`). */
export const getMandateOp = defineOperation("payments.getMandate", z.object({ mandate_id: z.string().min(1).max(64) }), Mandate);
