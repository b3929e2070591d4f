import { requireMerchant, type RefundRecord } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { refundForMerchant } from "./refund-for-merchant.ts";
import { toRefundRecord } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/** One refund of the calling merchant (api-key only); another merchant's is as absent as an unknown one. */
export async function getMerchantRefund(deps: RefundsDeps, meta: RequestMeta, input: { id: string }): Promise<RefundRecord> {
  requireMerchant(meta.principal);
  return toRefundRecord(await refundForMerchant(deps, meta, input.id));
}
