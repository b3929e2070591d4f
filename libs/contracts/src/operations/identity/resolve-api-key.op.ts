import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Resolves a raw `api-key` header to its merchant. Called by the gateway only; the raw key
 * crosses the private broker once and is hashed on arrival, never stored or logged.
 */
export const resolveApiKeyOp = defineOperation(
  "identity.resolveApiKey",
  z.object({ api_key: z.string().min(1).max(256) }),
  z.object({ merchant_id: z.string(), key_prefix: z.string(), livemode: z.boolean() }),
);
