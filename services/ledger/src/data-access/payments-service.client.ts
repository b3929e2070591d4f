import { createPayoutOp, onOwnAccount } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { PayoutTransfersPort } from "../domain/ports/payouts.port.ts";

/** Payments over RPC, on the ledger's own account: the one call the ledger makes (`SERVICE_CALLS`). */
export class PaymentsServiceClient implements PayoutTransfersPort {
  constructor(private readonly transport: Transport) {}

  createPayout(requestId: string, input: { payout_id: string; merchant_id: string; amount_cents: number; currency: string }) {
    return this.transport.call(createPayoutOp, input, onOwnAccount("ledger", { requestId }));
  }
}
