import { AppError } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";

/**
 * The user behind a session token, as they are now: a session opened before the user's last
 * role change (an older epoch), or of a removed user, is no longer valid. A session opened while
 * the team required two-factor the user lacked stays held to enrolment until the user has it.
 */
export async function resolveDashboardSession(deps: MerchantUsersDeps, input: { session_token: string }) {
  const invalid = new AppError("session_invalid", "the session is unknown, signed out or expired");
  const session = await deps.dashboardSessions.findActive(sha256Hex(input.session_token), new Date(deps.now()).toISOString());
  if (!session) throw invalid;
  const user = await deps.merchantUsers.findById(session.userId);
  if (!user || user.status !== "active" || user.sessionEpoch !== session.epoch) throw invalid;
  const mustEnrol = session.mustEnrol === true && user.totp?.enabled !== true;
  return { user: toMerchantUserView(user), session_id: session.sessionId, livemode: deps.livemode, must_enrol: mustEnrol };
}
