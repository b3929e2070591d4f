import { pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import { decideRefundHandler } from "./decide-refund.handler.ts";
import type { RefundsDeps } from "./deps.ts";
import { initiateRefundTransferHandler } from "./initiate-refund-transfer.handler.ts";
import { getMerchantRefundHandler } from "./get-merchant-refund.handler.ts";
import { listMerchantRefundsHandler } from "./list-merchant-refunds.handler.ts";
import { listRefundsHandler } from "./list-refunds.handler.ts";
import { simulateRefundTransferHandler } from "./simulate-refund-transfer.handler.ts";
import { requestRefundHandler } from "./request-refund.handler.ts";

/**
 * The refunds service's operations: its whole RPC surface in one list. Payouts' outcomes arrive
 * as payments' events (../events), never as calls.
 */
export function refundsHandlers(deps: RefundsDeps): HandlerEntry[] {
  return [
    requestRefundHandler(deps),
    listRefundsHandler(deps),
    decideRefundHandler(deps),
    initiateRefundTransferHandler(deps),
    simulateRefundTransferHandler(deps),
    listMerchantRefundsHandler(deps),
    getMerchantRefundHandler(deps),
    handle(pingOp("refunds"), async () => {
      await deps.ping();
      return { service: "refunds", ok: true as const };
    }),
  ];
}
