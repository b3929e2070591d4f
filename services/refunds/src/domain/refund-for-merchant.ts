import { AppError, reachesMerchant } from "@payrail/contracts";
import type { RequestMeta } from "./ports/payments.port.ts";
import { REFUND_ID, type RefundDoc } from "./refund.entity.ts";
import type { RefundsDeps } from "./refunds.deps.ts";

/**
 * The refund a merchant-side call (decide, initiate) acts on, if the caller may (docs/api-notes.md, Credentials):
 * the merchant's own api-key (another merchant's refund is as absent as an unknown one), or
 * the auth token of a user registered as an operator of the refund's merchant. Any other
 * user, the consumer who asked for the refund included, gets 403; a sandbox token acts only
 * for its own merchant, another merchant's refund being as absent to it as an unknown one.
 */
export async function refundForMerchant(deps: RefundsDeps, meta: RequestMeta, refundId: string): Promise<RefundDoc> {
  const caller = meta.principal;
  if (caller.kind !== "merchant" && caller.kind !== "user") {
    throw new AppError("permission_denied", "this action needs the merchant's api-key or an operator's auth token");
  }
  const refund = REFUND_ID.test(refundId) ? await deps.refunds.find(refundId) : null;
  const notFound = new AppError("refund_not_found", `no refund ${refundId}`, { param: "id" });
  if (!refund || !reachesMerchant(caller, refund.merchantId)) throw notFound;
  if (caller.kind === "merchant") {
    if (refund.merchantId !== caller.merchantId) throw notFound;
    return refund;
  }
  if (!(await deps.operators.isOperator(meta, refund.merchantId, caller.phone))) {
    throw new AppError("permission_denied", "only the refund's merchant or its operators may act on a refund");
  }
  return refund;
}
