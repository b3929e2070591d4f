import { AppError, normalizedAmounts, normalizedWindow, requireMerchant, type Principal, type RefundStatus } from "@payrail/contracts";
import type { RefundsPort } from "./ports/refunds.port.ts";
import { REFUND_ID, toRefundRecord } from "./refund.entity.ts";

/**
 * Merchant refunds (docs/api-notes.md, Refunds): the merchant's own refunds, newest first, of one status or
 * transaction, or requested in `from`/`to`, or of an amount in `amount_gte`..`amount_lte`, when asked. `starting_after` names the last refund of the previous page; one
 * that is not the merchant's is 400, as with checkouts.
 */
export async function listMerchantRefunds(
  deps: { refunds: RefundsPort },
  principal: Principal,
  query: {
    status?: RefundStatus | undefined;
    transaction_uuid?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    amount_gte?: string | undefined;
    amount_lte?: string | undefined;
    limit: number;
    starting_after?: string | undefined;
  },
) {
  const merchant = requireMerchant(principal);
  const amounts = normalizedAmounts(query);
  let after;
  if (query.starting_after !== undefined) {
    const cursor = REFUND_ID.test(query.starting_after) ? await deps.refunds.find(query.starting_after) : null;
    if (cursor?.merchantId !== merchant.merchantId) {
      throw new AppError("parameter_invalid", `starting_after names no refund of this merchant`, { param: "starting_after" });
    }
    after = cursor;
  }
  // One more than asked tells whether another page follows.
  const page = await deps.refunds.listForMerchant(
    merchant.merchantId,
    {
      status: query.status,
      transactionUuid: query.transaction_uuid,
      ...normalizedWindow(query),
      ...amounts,
      after,
    },
    query.limit + 1,
  );
  return { data: page.slice(0, query.limit).map(toRefundRecord), has_more: page.length > query.limit };
}
