import { PROVIDER_IDEMPOTENCY_WINDOW_MS, type CreatedTransfer, type CreateTransferInput, type TransferPort } from "./ports/transfer.port.ts";

/** An hour short of the window: our clock and the provider's may disagree a little. */
const LOOK_UP_AFTER_MS = PROVIDER_IDEMPOTENCY_WINDOW_MS - 3_600_000;

/**
 * Starts the transfer `input.idempotencyKey` stands for, at most once. Within the provider's
 * idempotency window the key alone makes a repeat answer the first transfer. `since` is no later
 * than the key's first use (the record that chose the key was written before any call): once
 * the window may have closed since then, a repeat would make a second debit, so the transfer is
 * looked up by the key first and created only when the provider has none: among the transfers of
 * the consumer `customerUrl` names, or with none (a merchant payout) of the source's owner.
 */
export async function createTransferOnce(
  deps: { transfers: TransferPort; now(): Date },
  input: CreateTransferInput,
  since: string | undefined,
  customerUrl: () => Promise<string | null>,
): Promise<CreatedTransfer> {
  const age = since ? deps.now().getTime() - Date.parse(since) : Number.POSITIVE_INFINITY;
  if (!(age < LOOK_UP_AFTER_MS)) {
    const found = await deps.transfers.findTransfer({ idempotencyKey: input.idempotencyKey, customerUrl: await customerUrl(), fundingSourceUrl: input.sourceFundingSource });
    if (found) return found;
  }
  return deps.transfers.createTransfer(input);
}
