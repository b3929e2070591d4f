import type { DashboardRole, MerchantUserView } from "@payrail/contracts";

/**
 * A merchant's dashboard user (docs/api-notes.md, The hosted page, the dashboard and the portal). One email is one user: the unique `email` index
 * lets a sign-in find the merchant from the address alone. `sessionEpoch` goes up at every role
 * change; a session carries the epoch it was opened under, so a change ends every older
 * session in one write on this document.
 */
export interface MerchantUserRecord {
  _id: string;
  merchantId: string;
  email: string;
  role: DashboardRole;
  status: "invited" | "active";
  /** argon2id (PHC string); null until the invitation is accepted. */
  passwordHash: string | null;
  /** SHA-256 of the invitation's one-time token; null once spent. */
  invitationHash: string | null;
  invitationExpiresAt: string | null;
  sessionEpoch: number;
  createdAt: string;
  /** Two-factor (docs/decisions/0052-dashboard-two-factor-and-reset.md); absent or null: none. */
  totp?: TotpState | null;
  /** SHA-256 of the outstanding password-reset link's token; null once spent (a new request replaces it). */
  resetHash?: string | null;
  resetExpiresAt?: string | null;
}

/**
 * A user's TOTP: the secret sealed with identity's secrets key (the user's id as context),
 * pending until a first code confirms it. `lastStep` is the last 30-second step accepted: a
 * code is taken only for a later step, in one conditional write, so it cannot be replayed.
 * `recovery` maps each recovery code's hash to whether it was spent.
 */
export interface TotpState {
  secretSealed: string;
  enabled: boolean;
  lastStep: number;
  recovery: Record<string, boolean>;
}

/**
 * A merchant's team (`merchant_teams`, keyed by merchant id): how many active owners it has.
 * Every change that takes an owner away first takes one off this count, conditionally on two or
 * more being left, so "at least one owner" holds under any interleaving. It can only count too
 * few (a crash between the count's write and the user's), which refuses a demotion, never allows one.
 */
export interface MerchantTeamRecord {
  _id: string;
  owners: number;
}

/** A dashboard session, keyed by the SHA-256 of its token: the cookie's value is never stored. */
export interface DashboardSessionRecord {
  _id: string;
  /** Public id, for logs. */
  sessionId: string;
  userId: string;
  merchantId: string;
  /** The user's `sessionEpoch` when the session opened. */
  epoch: number;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  /** Opened while the team required two-factor and the user had none: only enrolment is open to it. */
  mustEnrol?: boolean;
}

/**
 * The state between a right password and the second factor (`sign_in_challenges`), keyed by the
 * SHA-256 of its token. Deleted when a code is accepted, so one challenge opens one session.
 */
export interface SignInChallengeRecord {
  _id: string;
  userId: string;
  epoch: number;
  expiresAt: string;
}

/**
 * Sign-in attempts counted against one account (`account:` and a hash of the email) or one
 * client address (`address:` and its bucket) since `windowStart` (docs/decisions/0004-sign-in-limits.md).
 */
export interface SignInFailureRecord {
  _id: string;
  count: number;
  windowStart: string;
  /** Until when attempts are refused unseen; null before the limit is reached. */
  blockedUntil: string | null;
  /** When this record says nothing any more (window, delay and quiet time over): the sweep removes it. */
  expiresAt: string;
}

export function toMerchantUserView(user: MerchantUserRecord): MerchantUserView {
  return { id: user._id, merchant_id: user.merchantId, email: user.email, role: user.role, status: user.status, created_at: user.createdAt };
}
