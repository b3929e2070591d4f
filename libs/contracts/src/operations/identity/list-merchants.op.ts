import { z } from "zod";
import { MerchantView } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The installation's merchants, newest first (admin only; the CLI's `merchant list`). */
export const listMerchantsOp = defineOperation(
  "identity.listMerchants",
  z.object({ limit: z.number().int().min(1).max(1000).default(100) }),
  z.object({ data: z.array(MerchantView), has_more: z.boolean() }),
);
