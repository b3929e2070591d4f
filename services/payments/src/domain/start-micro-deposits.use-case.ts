import { AppError, type BankAccountValidationState, type UserPrincipal } from "@payrail/contracts";
import { sha256Hex, type SecretBox } from "@payrail/runtime";
import { MICRO_DEPOSITS_EXPIRE_MS, microDepositsExpired, toValidationState, validationOf, type MicroDepositsRecord } from "./account-validation.ts";
import { microDepositsSentEvent } from "./bank-account-events.ts";
import { consumerAccount, VALIDATION_TRIES, validationBusy, type MicroDepositsAccountDeps } from "./micro-deposits-account.ts";
import type { PaymentEventsDeps } from "./payment-events.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import type { BankDataPort } from "./ports/bank-data.port.ts";
import type { BlockedBankAccountsPort } from "./ports/blocked-bank-accounts.port.ts";
import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { TransferPort } from "./ports/transfer.port.ts";
import { bankAccountBlocked } from "./transfer-steps.ts";

export interface StartMicroDepositsDeps extends MicroDepositsAccountDeps, PaymentEventsDeps {
  bankData: Pick<BankDataPort, "createProcessorToken">;
  transfers: Pick<TransferPort, "ensureCustomer" | "createFundingSource" | "initiateMicroDeposits">;
  blocks: Pick<BlockedBankAccountsPort, "find">;
  secretBox: SecretBox;
  now(): Date;
}

/**
 * Start Micro-deposits (docs/decisions/0041-account-validation.md), for an account the
 * bank-data provider could not validate:
 * 1. a new round is claimed in one conditional write (`sending`): none yet, or the last pair
 *    expired; a pair still open answers as it is (nothing is sent twice);
 * 2. the provider steps, each keyed by the account and the round, so any number of racing or
 *    resumed calls make one funding source and one pair of deposits: processor token, the
 *    consumer's customer, the funding source (a blocked account: 409), the deposits;
 * 3. `sent`, with the amounts' 10-day expiry, in one conditional write with the internal event
 *    by which the consumer is told to look at their statement. A call that finds `sending` (a
 *    racing call, or one that crashed) runs step 2 again with the same keys.
 */
export async function startMicroDeposits(
  deps: StartMicroDepositsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id?: string | undefined; link_token: string },
): Promise<BankAccountValidationState> {
  let method = await consumerAccount(deps, meta, user, input);
  for (let i = 0; i < VALIDATION_TRIES; i++) {
    if (validationOf(method)) {
      throw new AppError("bank_account_already_validated", `the bank account of checkout ${method._id} is validated already`, { param: "checkout_id" });
    }
    const md = method.microDeposits ?? null;
    if (md?.status === "locked") throw microDepositsLocked(method._id);
    if (md?.status === "sent" && !microDepositsExpired(md, deps.now())) return toValidationState(method);
    const round = md?.status === "sending" ? md : newRound(md, deps.now());
    const claimed = md?.status === "sending" ? method : await deps.paymentMethods.changeValidation(method._id, method.accountId, method.validationVersion, { microDeposits: round }, []);
    if (claimed) {
      const sent = await sendRound(deps, claimed, round);
      if (sent) return toValidationState(sent);
    }
    method = await consumerAccount(deps, meta, user, input);
  }
  throw validationBusy(method._id);
}

function newRound(previous: MicroDepositsRecord | null, now: Date): MicroDepositsRecord {
  return {
    round: (previous?.round ?? 0) + 1,
    status: "sending",
    startedAt: now.toISOString(),
    fundingSourceUrl: null,
    reference: null,
    sentAt: null,
    expiresAt: null,
    failedTries: 0,
  };
}

/** Step 2 and 3; null when another call recorded the round's outcome first. */
async function sendRound(deps: StartMicroDepositsDeps, method: PaymentMethodRecord, round: MicroDepositsRecord): Promise<PaymentMethodRecord | null> {
  // One funding source per linked account, whatever the round; one pair per round.
  const key = `md-${sha256Hex(`${method._id}:${method.accountId}`).slice(0, 32)}`;
  const accessToken = deps.secretBox.open(method.accessTokenSealed, method._id);
  const { processorToken } = await deps.bankData.createProcessorToken({ accessToken, accountId: method.accountId, processor: "dwolla" });
  const { customerUrl } = await deps.transfers.ensureCustomer({ userId: method.userId, phone: method.userPhone });
  const source = await deps.transfers.createFundingSource({ customerUrl, processorToken, name: `Payrail checkout ${method._id}`, idempotencyKey: `${key}-funding-source` });
  if (await deps.blocks.find(source.fingerprint)) throw bankAccountBlocked(method._id);
  const deposits = await deps.transfers.initiateMicroDeposits({ fundingSourceUrl: source.fundingSourceUrl, idempotencyKey: `${key}-round-${round.round}` });
  const sentAt = deps.now();
  const microDeposits: MicroDepositsRecord = {
    ...round,
    status: "sent",
    fundingSourceUrl: source.fundingSourceUrl,
    reference: deposits.reference,
    sentAt: sentAt.toISOString(),
    expiresAt: new Date(sentAt.getTime() + MICRO_DEPOSITS_EXPIRE_MS).toISOString(),
  };
  const after = { ...method, microDeposits, validationVersion: (method.validationVersion ?? 0) + 1 };
  const event = microDepositsSentEvent(after, sentAt.toISOString(), deps.livemode, deposits.sandboxAmountsCents);
  const saved = await deps.paymentMethods.changeValidation(method._id, method.accountId, method.validationVersion, { microDeposits }, [event]);
  if (saved) deps.events.written();
  return saved;
}

export function microDepositsLocked(checkoutId: string): AppError {
  return new AppError("micro_deposits_locked", `three wrong pairs of amounts were entered for the bank account of checkout ${checkoutId}: it cannot be used; link another account`, {
    param: "checkout_id",
  });
}
