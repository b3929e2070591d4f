import { z } from "zod";
import { MerchantIdParam } from "./admin.schema.ts";

/** Roles of a dashboard user (docs/api-notes.md, The hosted page, the dashboard and the portal): owners and admins change things, viewers only read. */
export const DashboardRole = z.enum(["owner", "admin", "viewer"]);
export type DashboardRole = z.infer<typeof DashboardRole>;

/** Emails are compared lower-cased and trimmed: one address is one dashboard user. */
export const EmailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: "must be an email address" }));

/** argon2id takes any length; the bounds keep guessable and absurd passwords out. */
export const NewPassword = z.string().min(10, "must be at least 10 characters").max(256);

/** `POST /api/admin/merchants/{id}/users`. */
export const InviteMerchantUserBody = z.object({ email: EmailAddress, role: DashboardRole });
export const MerchantUserParams = MerchantIdParam.extend({ user_id: z.string().regex(/^usr_[0-9a-f]{32}$/, "must be a user id") });

export const MerchantUserView = z.object({
  id: z.string(),
  merchant_id: z.string(),
  email: z.string(),
  role: DashboardRole,
  /** `invited` until the invitation is accepted and a password set. */
  status: z.enum(["invited", "active"]),
  created_at: z.string(),
});
export type MerchantUserView = z.infer<typeof MerchantUserView>;

/** The invitation: the link's one-time token is shown here once and stored only as a hash. */
export const MerchantUserInvitation = z.object({
  user: MerchantUserView,
  invitation_token: z.string(),
  expires_at: z.string(),
  /** Set by the gateway: the dashboard page that accepts it (the token rides in the fragment). */
  url: z.string().optional(),
});

/**
 * The dashboard page that accepts an invitation, under the gateway's base URL. The token rides
 * in the fragment, which browsers never send to a server nor put in `Referer` or access logs.
 */
export function invitationUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, "")}/dashboard/accept#token=${encodeURIComponent(token)}`;
}
