import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/** One API key as an administrator may see it: its prefix, never the key or its hash. */
export const ApiKeyView = z.object({
  key_prefix: z.string(),
  livemode: z.boolean(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

/**
 * A merchant's API keys, oldest first, revoked ones included (admin or the merchant's dashboard users; the CLI's
 * `merchant keys`). An unknown merchant is 404 `merchant_not_found`.
 */
export const listApiKeysOp = defineOperation(
  "identity.listApiKeys",
  z.object({ merchant_id: z.string().min(1).max(64) }),
  z.object({ data: z.array(ApiKeyView) }),
);
