import { AppError, requireUser, type ConsumerReceiptListQuery, type ConsumerReceiptSummary, type Principal } from "@payrail/contracts";
import { isReceiptOf, toReceiptSummary } from "./consumer-receipt.ts";
import type { NoticesPort } from "./ports/notices.port.ts";
import type { ReceiptsPort } from "./ports/receipts.port.ts";

/**
 * The consumer's receipts across the merchants they paid, newest first, one per settled debit;
 * `starting_after` names the last receipt of the previous page (one not theirs is 400).
 */
export async function listConsumerReceipts(
  deps: { notices: Pick<NoticesPort, "find">; receipts: ReceiptsPort },
  principal: Principal,
  query: ConsumerReceiptListQuery,
): Promise<{ data: ConsumerReceiptSummary[]; has_more: boolean }> {
  const user = requireUser(principal);
  let after;
  if (query.starting_after !== undefined) {
    const found = await deps.notices.find(query.starting_after);
    if (!isReceiptOf(found, user)) throw new AppError("parameter_invalid", "starting_after names no receipt of yours", { param: "starting_after" });
    after = found;
  }
  const page = await deps.receipts.listForConsumer(user.userId, user.merchantId, query.limit + 1, after);
  return { data: page.slice(0, query.limit).map(toReceiptSummary), has_more: page.length > query.limit };
}
