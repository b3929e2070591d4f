import { requireMerchantMember, type Principal } from "@payrail/contracts";
import { toMerchantUserView } from "./merchant-user.entity.ts";
import type { MerchantUsersDeps } from "./merchant-users.deps.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/** A merchant's team, oldest first; a team is small, 100 is the page. */
export async function listMerchantUsers(deps: MerchantUsersDeps, principal: Principal, input: { merchant_id: string }) {
  requireMerchantMember(principal, input.merchant_id);
  await requireMerchantRecord(deps, input.merchant_id);
  return { data: (await deps.merchantUsers.listForMerchant(input.merchant_id, 100)).map(toMerchantUserView) };
}
