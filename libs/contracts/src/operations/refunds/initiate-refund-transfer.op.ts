import { InitiateRefundBody, RefundAnswer } from "../../http/refunds.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Initiate Refund Transfer (spec 14): starts the approved refund's transfer (merchant →
 * consumer) once the original transaction is `completed`; exactly one transfer however often
 * it is called. A `failed` refund is paid out again by a new transfer, if its amount is still
 * refundable (else 409 `amount_exceeds_refundable`). Same callers as decideRefund.
 */
export const initiateRefundTransferOp = defineOperation("refunds.initiateRefundTransfer", InitiateRefundBody, RefundAnswer);
