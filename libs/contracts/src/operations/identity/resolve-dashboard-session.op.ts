import { z } from "zod";
import { MerchantUserView } from "../../http/merchant-user.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * The user behind a dashboard session cookie, with their current role. A session is refused
 * (401 `session_invalid`) once signed out, expired, or older than its user's last role change
 * or removal: those take effect at the next request. `must_enrol`: the team requires two-factor,
 * this user has none yet, and the session opened under that rule: the dashboard shows only the
 * enrolment until it is done. Called by the gateway only.
 */
export const resolveDashboardSessionOp = defineOperation(
  "identity.resolveDashboardSession",
  z.object({ session_token: z.string().min(1).max(128) }),
  z.object({ user: MerchantUserView, session_id: z.string(), livemode: z.boolean(), must_enrol: z.boolean() }),
);
