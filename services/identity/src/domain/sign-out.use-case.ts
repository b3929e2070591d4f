import { sha256Hex } from "@payrail/runtime";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";

/** Revokes the session at once (the gateway asks identity on every request, so nothing caches it). */
export async function signOut(deps: MerchantUsersDeps, input: { session_token: string }) {
  await deps.dashboardSessions.revoke(sha256Hex(input.session_token), new Date(deps.now()).toISOString());
  return { signed_out: true as const };
}
