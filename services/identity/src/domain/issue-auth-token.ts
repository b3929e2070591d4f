import { prefixedHexId } from "@payrail/runtime";
import { newAuthToken } from "./auth-token.ts";
import type { UserRecord } from "./consumer.entity.ts";
import type { AuthTokensPort } from "./ports/auth-tokens.port.ts";

/**
 * Issues a token for the user; only its hash is stored, and the token is returned once. A
 * sandbox token is limited to `merchantId`, the merchant that read its code back.
 */
export async function issueAuthToken(
  deps: { authTokens: AuthTokensPort; authTokenTtlMs: number },
  user: UserRecord,
  now: number,
  merchantId?: string,
): Promise<string> {
  const { token, hash } = newAuthToken();
  await deps.authTokens.insert({
    _id: hash,
    tokenId: prefixedHexId("tok_"),
    userId: user._id,
    phone: user.phone,
    ...(merchantId === undefined ? {} : { merchantId }),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + deps.authTokenTtlMs).toISOString(),
    revokedAt: null,
  });
  return token;
}
