import { prefixedHexId, randomToken, sha256Hex } from "@payrail/runtime";
import { toMerchantUserView, type MerchantUserRecord } from "./merchant-user.entity.ts";
import { SESSION_TTL_MS, type MerchantUsersDeps } from "./merchant-users.deps.ts";

/**
 * A new dashboard session for a user who proved who they are. It remembers whether the team
 * required two-factor the user lacks, so the dashboard holds it at the enrolment page.
 */
export async function openSession(deps: MerchantUsersDeps, user: MerchantUserRecord, now: number) {
  const merchant = await deps.merchants.findMerchant(user.merchantId);
  const token = randomToken(32);
  const expiresAt = new Date(now + SESSION_TTL_MS).toISOString();
  await deps.dashboardSessions.insert({
    _id: sha256Hex(token),
    sessionId: prefixedHexId("ses_"),
    userId: user._id,
    merchantId: user.merchantId,
    epoch: user.sessionEpoch,
    createdAt: new Date(now).toISOString(),
    expiresAt,
    revokedAt: null,
    mustEnrol: merchant?.requireTwoFactor === true && user.totp?.enabled !== true,
  });
  return { session_token: token, expires_at: expiresAt, user: toMerchantUserView(user) };
}
