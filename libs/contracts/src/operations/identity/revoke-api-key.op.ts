import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/** Revokes one key of a merchant by its public prefix. Admin, or an owner/admin of the merchant in the dashboard. */
export const revokeApiKeyOp = defineOperation(
  "identity.revokeApiKey",
  z.object({ merchant_id: z.string().min(1).max(64), key_prefix: z.string().min(1).max(64) }),
  z.object({ revoked: z.literal(true), key_prefix: z.string() }),
);
