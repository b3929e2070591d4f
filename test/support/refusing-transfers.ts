import { TransferRefused, type TransferPort } from "@payrail/payments";
import { transfersWith } from "./transfers-with.ts";

/**
 * A transfer provider that refuses, for good, the next `control.refunds` refund payouts it is
 * asked for (as Dwolla refuses a transfer from a funding source without the balance), and
 * passes everything else to the real one. With `control.asked`, it counts the asks by refund.
 */
export function refusingRefundPayouts(control: { refunds: number; asked?: Map<string, number> }) {
  return (inner: TransferPort): TransferPort =>
    transfersWith(inner, {
      async createTransfer(input) {
        const refundId = input.metadata?.["refund_id"];
        if (typeof refundId === "string") control.asked?.set(refundId, (control.asked.get(refundId) ?? 0) + 1);
        if (refundId && control.refunds > 0) {
          control.refunds--;
          throw new TransferRefused("the transfer provider refused the request (InsufficientFunds): the source has too little balance", "InsufficientFunds");
        }
        return inner.createTransfer(input);
      },
    });
}
