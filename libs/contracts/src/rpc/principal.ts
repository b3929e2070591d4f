import { z } from "zod";
import { AppError } from "../errors.ts";

/**
 * Who is calling, as resolved by the gateway from the request's credentials. Services trust
 * it as far as its sender may carry it (the broker's validated `user_id`, see libs/messaging
 * `TrustedSenders`: merchants and consumers from the gateway, admin from the gateway and the
 * CLI, a service from its own users for the calls `SERVICE_CALLS` lists) and never see raw
 * credentials.
 */
export const MerchantPrincipal = z.object({
  kind: z.literal("merchant"),
  merchantId: z.string(),
  /** Which key authenticated the call (its public prefix), for logs and revocation. */
  keyPrefix: z.string(),
  livemode: z.boolean(),
  /**
   * Set for a merchant user signed in to the dashboard (the id of that user and their role);
   * absent for an api-key, which may do everything its merchant may.
   */
  userId: z.string().optional(),
  role: z.enum(["owner", "admin", "viewer"]).optional(),
});
export type MerchantPrincipal = z.infer<typeof MerchantPrincipal>;

export const UserPrincipal = z.object({
  kind: z.literal("user"),
  userId: z.string(),
  phone: z.string(),
  /** Id of the auth-token record that authenticated the call (not the token): logout revokes it. */
  tokenId: z.string().optional(),
  /**
   * Set for a sandbox token, whose code a merchant read back: the one merchant whose records the
   * token reaches (docs/decisions/0001-sandbox-tenancy.md). Absent for a live token (a real SMS).
   */
  merchantId: z.string().optional(),
});
export type UserPrincipal = z.infer<typeof UserPrincipal>;

export const AdminPrincipal = z.object({ kind: z.literal("admin") });
/**
 * One service calling another on its own account (refunds asking payments for a payout), the
 * only principal a service sends: it checks the tenant itself before it asks. Only that
 * service's broker users may send it, to the operations `SERVICE_CALLS` lists; the gateway never does.
 */
export const ServicePrincipal = z.object({ kind: z.literal("service"), service: z.string() });
export type ServicePrincipal = z.infer<typeof ServicePrincipal>;
export const AnonymousPrincipal = z.object({ kind: z.literal("anonymous") });

export const Principal = z.discriminatedUnion("kind", [
  MerchantPrincipal,
  UserPrincipal,
  AdminPrincipal,
  ServicePrincipal,
  AnonymousPrincipal,
]);
export type Principal = z.infer<typeof Principal>;

export const ANONYMOUS: Principal = { kind: "anonymous" };

/** The merchant behind the call, or permission_denied (a consumer token on a merchant action). */
export function requireMerchant(principal: Principal): MerchantPrincipal {
  if (principal.kind === "merchant") return principal;
  throw new AppError("permission_denied", "this action needs a merchant api-key");
}

/**
 * The merchant behind a call that changes state: a dashboard viewer reads only, so every
 * state-changing handler asks this rather than `requireMerchant` (roles are enforced by the
 * services, not by the pages hiding buttons).
 */
export function requireMerchantWriter(principal: Principal): MerchantPrincipal {
  const merchant = requireMerchant(principal);
  if (merchant.role === "viewer") throw new AppError("permission_denied", "a viewer may read but not change anything");
  return merchant;
}

/** A viewer's call that would change state is refused; other principals are the handler's to judge. */
export function refuseViewer(principal: Principal): void {
  if (principal.kind === "merchant" && principal.role === "viewer") {
    throw new AppError("permission_denied", "a viewer may read but not change anything");
  }
}

/**
 * Admin, or a dashboard owner/admin of this very merchant: who may manage a merchant's team and
 * keys. An api-key may not (keys and users are managed by people, not integrations).
 */
export function requireMerchantManager(principal: Principal, merchantId: string): void {
  if (principal.kind === "admin") return;
  if (principal.kind === "merchant" && principal.merchantId === merchantId && (principal.role === "owner" || principal.role === "admin")) return;
  throw new AppError("permission_denied", "only an administrator or the merchant's owners and admins may do this");
}

/** Admin, or any dashboard user of this merchant (viewers included): who may read its team and keys. */
export function requireMerchantMember(principal: Principal, merchantId: string): void {
  if (principal.kind === "admin") return;
  if (principal.kind === "merchant" && principal.merchantId === merchantId && principal.role !== undefined) return;
  throw new AppError("permission_denied", "only an administrator or the merchant's users may see this");
}

/** The consumer behind the call, or permission_denied. */
export function requireUser(principal: Principal): UserPrincipal {
  if (principal.kind === "user") return principal;
  throw new AppError("permission_denied", "this action needs a consumer auth token");
}

/**
 * Whether the caller's token reaches the records of `merchantId`: a sandbox consumer token only
 * its own merchant's. Every operation that serves a consumer asks this of each record (or filters
 * its lists by `principal.merchantId`), and answers a record out of reach exactly as an unknown
 * one. Other principals pass: their handlers judge them.
 */
export function reachesMerchant(principal: Principal, merchantId: string): boolean {
  return principal.kind !== "user" || principal.merchantId === undefined || principal.merchantId === merchantId;
}

/** Admin calls come only through admin routes guarded by x-admin-token, or the CLI. */
export function requireAdmin(principal: Principal): void {
  if (principal.kind !== "admin") throw new AppError("permission_denied", "admin only");
}

/** Internal operations answer only other services (never a request relayed from HTTP). */
export function requireService(principal: Principal): ServicePrincipal {
  if (principal.kind === "service") return principal;
  throw new AppError("permission_denied", "internal operation");
}
