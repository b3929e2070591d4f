import type { TransferPort } from "@payrail/payments";

/** The provider `inner` with some of its calls replaced (fault injection, counting, gates); the rest pass through. */
export function transfersWith(inner: TransferPort, replaced: Partial<Omit<TransferPort, "provider">>): TransferPort {
  return {
    provider: inner.provider,
    ensureCustomer: (input) => inner.ensureCustomer(input),
    createFundingSource: (input) => inner.createFundingSource(input),
    createTransfer: (input) => inner.createTransfer(input),
    getTransfer: (transferId) => inner.getTransfer(transferId),
    findTransfer: (input) => inner.findTransfer(input),
    initiateMicroDeposits: (input) => inner.initiateMicroDeposits(input),
    verifyMicroDeposits: (input) => inner.verifyMicroDeposits(input),
    ...replaced,
  };
}
