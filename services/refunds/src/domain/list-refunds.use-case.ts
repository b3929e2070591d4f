import type { RefundRecord, UserPrincipal } from "@payrail/contracts";
import type { RefundsPort } from "./ports/refunds.port.ts";
import { toRefundRecord } from "./refund.entity.ts";

/** Consumer Refund List: the consumer's own refunds (a sandbox token: of its merchant), newest first. */
export async function listRefunds(deps: { refunds: RefundsPort }, user: UserPrincipal, query: { limit: number }): Promise<RefundRecord[]> {
  return (await deps.refunds.listForUser(user.userId, query.limit, user.merchantId)).map(toRefundRecord);
}
