import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { DashboardSessionsPort } from "./ports/dashboard-sessions.port.ts";
import type { MerchantUsersPort } from "./ports/merchant-users.port.ts";
import type { SecretBox } from "@payrail/runtime";
import type { ResetMailPort } from "./ports/reset-mail.port.ts";
import type { SignInChallengesPort } from "./ports/sign-in-challenges.port.ts";
import type { SignInFailuresPort } from "./ports/sign-in-failures.port.ts";

/** What the dashboard users' use cases need. */
export interface MerchantUsersDeps {
  merchants: MerchantsPort;
  merchantUsers: MerchantUsersPort;
  dashboardSessions: DashboardSessionsPort;
  signInFailures: SignInFailuresPort;
  signInChallenges: SignInChallengesPort;
  /** Seals TOTP secrets at rest (a key derived from SECRETS_KEY). */
  totpBox: SecretBox;
  /** Password-reset mail; null when there is no way to send it (live without SMTP_URL). */
  resetMail: ResetMailPort | null;
  /** Where users reach the gateway (PUBLIC_URL): reset links point there. */
  publicUrl: string;
  livemode: boolean;
  /** Told after a write that stored events (audit entries), so the relay publishes them at once. */
  events: { written(): void };
  now(): number;
}

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
export const SESSION_TTL_MS = 12 * 3_600_000;
