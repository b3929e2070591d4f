import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Resolves a raw auth token (from `Authorization`) to its user. Called by the gateway only;
 * the token is hashed on arrival, never stored or logged. Unknown, expired and revoked tokens
 * are all `auth_token_invalid`. A sandbox token names the merchant it is limited to (`merchant_id`).
 */
export const resolveAuthTokenOp = defineOperation(
  "identity.resolveAuthToken",
  z.object({ auth_token: z.string().min(1).max(512) }),
  z.object({ user_id: z.string(), phone: z.string(), token_id: z.string(), merchant_id: z.string().optional() }),
);
