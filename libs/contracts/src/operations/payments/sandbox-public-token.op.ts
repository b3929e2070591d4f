import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/** Body of `POST /api/sandbox/public_token` (docs/api-notes.md, The sandbox): a bank-linking token from Create Link Token. */
export const SandboxPublicTokenBody = z.object({ link_token: z.string().min(1).max(512) });

export const SandboxAccount = z.object({
  account_id: z.string(),
  name: z.string(),
  mask: z.string(),
  subtype: z.string(),
});

export const SandboxPublicTokenResponse = z.object({ public_token: z.string(), accounts: z.array(SandboxAccount) });

/**
 * Sandbox only: plays the consumer's part in the provider's bank-linking UI and answers the
 * public token it would hand the front end, with the accounts to choose from. Any merchant may
 * call it; in live mode it is `route_not_found`.
 */
export const sandboxPublicTokenOp = defineOperation(
  "payments.sandboxPublicToken",
  SandboxPublicTokenBody,
  SandboxPublicTokenResponse,
);

/**
 * Sandbox only: the same for a consumer, for a bank-linking token issued to that consumer (a
 * subscription's re-link from a page without an api-key, the portal); another consumer's token
 * is `parameter_invalid` like an unknown one.
 */
export const sandboxConsumerPublicTokenOp = defineOperation(
  "payments.sandboxConsumerPublicToken",
  SandboxPublicTokenBody,
  SandboxPublicTokenResponse,
);
