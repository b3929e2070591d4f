import { z } from "zod";
import { MerchantView } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Reads one merchant (admin, or the merchant itself). */
export const getMerchantOp = defineOperation(
  "identity.getMerchant",
  z.object({ merchant_id: z.string().min(1).max(64) }),
  MerchantView,
  { reads: true },
);
