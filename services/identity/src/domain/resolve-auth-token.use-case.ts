import { AppError } from "@payrail/contracts";
import { hashPresentedToken } from "./auth-token.ts";
import type { AuthTokensPort } from "./ports/auth-tokens.port.ts";

/**
 * The consumer behind a presented token, with the merchant a sandbox token is limited to:
 * unknown, malformed, expired and revoked all get 401.
 */
export async function resolveAuthToken(
  deps: { authTokens: AuthTokensPort; now(): number },
  presented: string,
): Promise<{ user_id: string; phone: string; token_id: string; merchant_id?: string }> {
  const hash = hashPresentedToken(presented);
  const token = hash ? await deps.authTokens.findActive(hash, new Date(deps.now()).toISOString()) : null;
  if (!token) throw new AppError("auth_token_invalid", "the auth token is not valid");
  const scope = token.merchantId === undefined ? {} : { merchant_id: token.merchantId };
  return { user_id: token.userId, phone: token.phone, token_id: token.tokenId, ...scope };
}
