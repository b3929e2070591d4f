import { createTransfers, type TransferPort, type TransferProvider } from "@payrail/payments";
import { silentLogger, type Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";

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

/**
 * The sandbox transfer provider payments would make on `store` (its clock `now`), seen through
 * `wrap` (a fake: a refusal, a gate, a counter); the simulator stays the sandbox's own. Passed to
 * payments as its `transfers`, where production lets PROVIDERS choose.
 */
export async function sandboxTransfersThrough(
  store: Store,
  wrap: (inner: TransferPort) => TransferPort,
  options: { now?: () => Date; logger?: Logger } = {},
): Promise<TransferProvider> {
  const sandbox = await createTransfers({ PROVIDERS: "sandbox", DWOLLA_ENV: "sandbox" }, store, options.logger ?? silentLogger(), options.now);
  return { ...sandbox, transfers: wrap(sandbox.transfers) };
}
