import type { ConsumerListQuery, ConsumerPayment, UserPrincipal } from "@payrail/contracts";
import { merchantNames, pageOf } from "../shared/merchant-names.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";
import type { TransactionsPort } from "./ports/transactions.port.ts";
import { amountOf } from "./transaction.entity.ts";

/**
 * The consumer portal's payments: every transaction record of this consumer, whatever the
 * merchant, newest first, a page at a time (the cursor is the last record's sequential id, so
 * the user_newest index serves each page), each with its merchant's name. A sandbox token sees
 * its merchant's only.
 */
export async function listConsumerPayments(
  deps: { transactions: Pick<TransactionsPort, "listForUser">; merchants: Pick<MerchantsPort, "merchantName"> },
  meta: RequestMeta,
  user: UserPrincipal,
  query: ConsumerListQuery,
): Promise<{ data: ConsumerPayment[]; has_more: boolean; next_cursor: string | null }> {
  const before = query.cursor === undefined ? {} : { beforeId: Number(query.cursor) };
  const docs = await deps.transactions.listForUser(user.userId, query.limit + 1, { ...before, merchantId: user.merchantId });
  const { page, has_more, next_cursor } = pageOf(docs, query.limit, (doc) => doc.id);
  const names = await merchantNames(deps, meta, page.map((doc) => doc.merchantId));
  const data = page.map((doc) => ({
    transaction_uuid: doc.transaction_uuid,
    checkout_id: doc.checkoutRef,
    merchant_name: names.get(doc.merchantId)!,
    amount: doc.amount,
    amount_refunded: amountOf(doc.amountRefundedCents ?? 0),
    currency: doc.currency,
    status: doc.transaction_status,
    is_subscription: doc.isSubscription,
    date: doc.transaction_date_time,
    failure_reason: doc.failure_reason ?? null,
  }));
  return { data, has_more, next_cursor };
}
