import { AppError, requireMerchant, type Principal } from "@payrail/contracts";
import { eventOf, retentionStart } from "./owned.ts";
import { toWebhookEvent } from "./webhook-event.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Events API (docs/api-notes.md, Events and webhooks): the merchant's events of the last 30 days, newest first, of one
 * type or group (`refund.*`) when asked; `starting_after` names the last event of the
 * previous page (one that is not the merchant's is 400, as with refunds). `about` keeps the
 * events whose object is, or belongs to, that checkout, transaction or refund.
 */
export async function listEvents(
  deps: WebhooksDeps,
  principal: Principal,
  query: { type?: string | undefined; about?: string | undefined; limit: number; starting_after?: string | undefined },
) {
  const { merchantId } = requireMerchant(principal);
  let after;
  if (query.starting_after !== undefined) {
    after = await eventOf(deps, merchantId, query.starting_after).catch(() => {
      throw new AppError("parameter_invalid", "starting_after names no event of this merchant", { param: "starting_after" });
    });
  }
  const type = query.type === "*" ? undefined : query.type;
  const group = type?.endsWith(".*") ? type.slice(0, -2) : undefined;
  const page = await deps.events.list(
    merchantId,
    { type: group ? undefined : type, group, about: query.about, since: retentionStart(deps.now()), after },
    query.limit + 1,
  );
  return { data: page.slice(0, query.limit).map(toWebhookEvent), has_more: page.length > query.limit };
}
