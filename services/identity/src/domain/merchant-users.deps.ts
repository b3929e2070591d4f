import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { DashboardSessionsPort } from "./ports/dashboard-sessions.port.ts";
import type { MerchantUsersPort } from "./ports/merchant-users.port.ts";
import type { SignInFailuresPort } from "./ports/sign-in-failures.port.ts";

/** What the dashboard users' use cases need. */
export interface MerchantUsersDeps {
  merchants: MerchantsPort;
  merchantUsers: MerchantUsersPort;
  dashboardSessions: DashboardSessionsPort;
  signInFailures: SignInFailuresPort;
  livemode: boolean;
  now(): number;
}

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
export const SESSION_TTL_MS = 12 * 3_600_000;
