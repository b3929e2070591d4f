import { AppError } from "@payrail/contracts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/** Webhook endpoints per merchant (docs/api-notes.md, Limits). */
export const MAX_ENDPOINTS_PER_MERCHANT = 16;
/** A full count nobody changed for this long is checked against the endpoints themselves. */
const SETTLED_MS = 60_000;

type QuotaDeps = Pick<WebhooksDeps, "quotas" | "endpoints" | "now">;

const countEndpoints = async (deps: QuotaDeps, merchantId: string) => (await deps.endpoints.list(merchantId, MAX_ENDPOINTS_PER_MERCHANT + 1)).length;

/**
 * Counts one more endpoint for the merchant before it is inserted, or refuses the 17th with 409
 * `endpoint_limit_reached`. The count is one conditional `$inc` guarded by `count < 16`, so
 * racing creates on any number of instances never pass the limit (counting the endpoints and
 * then inserting would let them all through). A merchant's first create since counting began
 * starts the count at the endpoints it already has; a create that died between the count and
 * its insert leaves the count one high, which a full, settled count repairs from the endpoints.
 */
export async function reserveEndpoint(deps: QuotaDeps, merchantId: string): Promise<void> {
  const at = deps.now().toISOString();
  if (await deps.quotas.take(merchantId, MAX_ENDPOINTS_PER_MERCHANT, at)) return;
  const quota = await deps.quotas.find(merchantId);
  if (!quota) {
    await deps.quotas.open(merchantId, await countEndpoints(deps, merchantId), at);
  } else if (Date.parse(quota.updatedAt) < deps.now().getTime() - SETTLED_MS) {
    const actual = await countEndpoints(deps, merchantId);
    if (actual < quota.count) await deps.quotas.correct(merchantId, quota, actual, at);
  }
  if (await deps.quotas.take(merchantId, MAX_ENDPOINTS_PER_MERCHANT, at)) return;
  throw new AppError("endpoint_limit_reached", `a merchant may have ${MAX_ENDPOINTS_PER_MERCHANT} webhook endpoints; delete one first`);
}
