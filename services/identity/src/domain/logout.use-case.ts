import { AppError, requireUser, type Principal } from "@payrail/contracts";
import type { AuthTokensPort } from "./ports/auth-tokens.port.ts";

/**
 * Revokes the token that authenticated the call. Idempotent here; through the gateway a
 * second logout with the same token is a 401, because the token no longer authenticates.
 */
export async function logout(
  deps: { authTokens: AuthTokensPort; now(): number },
  principal: Principal,
): Promise<{ message: string }> {
  const user = requireUser(principal);
  if (!user.tokenId) throw new AppError("auth_token_invalid", "the call was not authenticated by an auth token");
  await deps.authTokens.revoke(user.tokenId, user.userId, new Date(deps.now()).toISOString());
  return { message: "Logged out" };
}
