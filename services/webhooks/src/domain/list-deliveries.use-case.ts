import { AppError, requireMerchant, type Principal } from "@payrail/contracts";
import { toDeliveryAttempt } from "./delivery.entity.ts";
import { endpointOf } from "./owned.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * An endpoint's delivery attempts, newest first: event, outcome, HTTP status, duration, next
 * retry. `starting_after` names the last attempt of the previous page (of this endpoint, else 400).
 */
export async function listDeliveries(deps: WebhooksDeps, principal: Principal, input: { id: string; limit: number; starting_after?: string | undefined }) {
  const { merchantId } = requireMerchant(principal);
  await endpointOf(deps, merchantId, input.id);
  let after;
  if (input.starting_after !== undefined) {
    after = await deps.deliveries.findAttempt(input.starting_after);
    if (after?.endpointId !== input.id) throw new AppError("parameter_invalid", "starting_after names no attempt of this endpoint", { param: "starting_after" });
  }
  const page = await deps.deliveries.attemptsOf(input.id, input.limit + 1, after);
  return { data: page.slice(0, input.limit).map(toDeliveryAttempt), has_more: page.length > input.limit };
}
