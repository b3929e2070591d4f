import { AppError, requireMerchant, type NoticeListQuery, type Principal } from "@payrail/contracts";
import type { NoticeDoc } from "./notice.entity.ts";
import type { NoticesPort } from "./ports/notices.port.ts";

/**
 * The merchant's notices, newest first, of one checkout when asked; `starting_after` names the
 * last notice of the previous page (one that is not the merchant's is 400). `view`: the
 * merchant's record (`toNotice`), or the sandbox outbox's, which shows what each said.
 */
export async function listNotices<V>(deps: { notices: NoticesPort }, principal: Principal, query: NoticeListQuery, view: (doc: NoticeDoc) => V) {
  const { merchantId } = requireMerchant(principal);
  let after: NoticeDoc | undefined;
  if (query.starting_after !== undefined) {
    const found = await deps.notices.find(query.starting_after);
    if (!found || found.merchantId !== merchantId) throw new AppError("parameter_invalid", "starting_after names no notice of this merchant", { param: "starting_after" });
    after = found;
  }
  const page = await deps.notices.list(merchantId, query.checkout_id, query.limit + 1, after);
  return { data: page.slice(0, query.limit).map(view), has_more: page.length > query.limit };
}
