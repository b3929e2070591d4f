import { z } from "zod";
import { IssuedApiKey } from "../../http/admin.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** Issues one more API key for a merchant; older keys stay valid until revoked. Admin, or an owner/admin of the merchant in the dashboard. */
export const generateApiKeyOp = defineOperation(
  "identity.generateApiKey",
  z.object({ merchant_id: z.string().min(1).max(64) }),
  IssuedApiKey,
);
