import { sha256Hex } from "@payrail/runtime";
import type { BankDataPort } from "../bank-accounts/ports/bank-data.port.ts";
import type { BlockedBankAccountsPort } from "../returns/ports/blocked-bank-accounts.port.ts";
import type { FundingSource, TransferPort } from "./ports/transfer.port.ts";
import { bankAccountBlocked } from "./transfer-steps.ts";

export interface FundAccountDeps {
  bankData: Pick<BankDataPort, "createProcessorToken">;
  transfers: Pick<TransferPort, "ensureCustomer" | "createFundingSource">;
  blocks: Pick<BlockedBankAccountsPort, "find">;
}

/**
 * The consumer's bank account made a funding source at the transfer provider, which
 * fingerprints it: a processor token from the bank-data provider, the consumer's customer, the
 * funding source under `idempotencyKey` (a racing or resumed call gets the same one). An
 * account blocked by an earlier return: 409 `bank_account_blocked`.
 */
export async function fundAccount(
  deps: FundAccountDeps,
  input: { checkoutId: string; userId: string; phone: string; accessToken: string; accountId: string; name: string; idempotencyKey: string },
): Promise<{ processorToken: string; customerUrl: string; source: FundingSource }> {
  const { processorToken } = await deps.bankData.createProcessorToken({ accessToken: input.accessToken, accountId: input.accountId, processor: "dwolla" });
  const { customerUrl } = await deps.transfers.ensureCustomer({ userId: input.userId, phone: input.phone });
  const source = await deps.transfers.createFundingSource({ customerUrl, processorToken, name: input.name, idempotencyKey: input.idempotencyKey });
  if (await deps.blocks.find(source.fingerprint)) throw bankAccountBlocked(input.checkoutId);
  return { processorToken, customerUrl, source };
}

/**
 * The provider keys of micro-deposits to one linked account: its funding source (one whatever
 * the round; a pending re-link's switch asks for it again) and each round's pair.
 */
export function microDepositsKey(checkoutId: string, accountId: string): string {
  return `md-${sha256Hex(`${checkoutId}:${accountId}`).slice(0, 32)}`;
}
