import { AppError, type BankAccountValidationState, type UserPrincipal } from "@payrail/contracts";
import type { SecretBox } from "@payrail/runtime";
import { MICRO_DEPOSITS_EXPIRE_MS, microDepositsExpired, toValidationState, validationOf, type MicroDepositsRecord } from "./account-validation.ts";
import { microDepositsSentEvent } from "./bank-account-events.ts";
import { fundAccount, microDepositsKey, type FundAccountDeps } from "../transfers/fund-account.ts";
import {
  changeAccountValidation,
  consumerAccount,
  VALIDATION_TRIES,
  validationBusy,
  type AccountView,
  type MicroDepositsAccountDeps,
  type ValidationSubject,
} from "./micro-deposits-account.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { TransferPort } from "../transfers/ports/transfer.port.ts";

export interface SendMicroDepositsDeps extends Pick<MicroDepositsAccountDeps, "paymentMethods">, PaymentEventsDeps, FundAccountDeps {
  transfers: Pick<TransferPort, "ensureCustomer" | "createFundingSource" | "initiateMicroDeposits">;
  secretBox: SecretBox;
  now(): Date;
}

export type StartMicroDepositsDeps = SendMicroDepositsDeps & MicroDepositsAccountDeps;

/**
 * Start Micro-deposits (docs/decisions/0041-account-validation.md), for the account linked to
 * the consumer's checkout when the bank-data provider could not validate it.
 */
export function startMicroDeposits(
  deps: StartMicroDepositsDeps,
  meta: RequestMeta,
  user: UserPrincipal,
  input: { checkout_id?: string | undefined; link_token: string },
): Promise<BankAccountValidationState> {
  return sendMicroDeposits(deps, () => consumerAccount(deps, meta, user, input));
}

/**
 * Micro-deposits to the account `read` answers (a checkout's, or a subscription's pending
 * change, docs/decisions/0043-portal-micro-deposits.md):
 * 1. a new round is claimed in one conditional write (`sending`): none yet, or the last pair
 *    expired; a pair still open answers as it is (nothing is sent twice);
 * 2. the provider steps, each keyed by the account and the round, so any number of racing or
 *    resumed calls make one funding source and one pair of deposits: processor token, the
 *    consumer's customer, the funding source (a blocked account: 409), the deposits;
 * 3. `sent`, with the amounts' 10-day expiry, in one conditional write with the internal event
 *    by which the consumer is told to look at their statement. A call that finds `sending` (a
 *    racing call, or one that crashed) runs step 2 again with the same keys.
 */
export async function sendMicroDeposits(deps: SendMicroDepositsDeps, read: ValidationSubject["read"]): Promise<BankAccountValidationState> {
  let account = await read();
  for (let i = 0; i < VALIDATION_TRIES; i++) {
    if (validationOf(account)) {
      throw new AppError("bank_account_already_validated", `the bank account of checkout ${account._id} is validated already`, { param: "checkout_id" });
    }
    const md = account.microDeposits ?? null;
    if (md?.status === "locked") throw microDepositsLocked(account._id);
    if (md?.status === "sent" && !microDepositsExpired(md, deps.now())) return toValidationState(account);
    const round = md?.status === "sending" ? md : newRound(md, deps.now());
    const claimed = md?.status === "sending" ? account : await changeAccountValidation(deps, account, { microDeposits: round }, []);
    if (claimed) {
      const sent = await sendRound(deps, claimed, round);
      if (sent) return toValidationState(sent);
    }
    account = await read();
  }
  throw validationBusy(account._id);
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
async function sendRound(deps: SendMicroDepositsDeps, account: AccountView, round: MicroDepositsRecord): Promise<AccountView | null> {
  // One funding source per linked account, whatever the round; one pair per round.
  const key = microDepositsKey(account._id, account.accountId);
  const { source } = await fundAccount(deps, {
    checkoutId: account._id,
    userId: account.userId,
    phone: account.userPhone,
    accessToken: deps.secretBox.open(account.accessTokenSealed, account._id),
    accountId: account.accountId,
    name: `Payrail checkout ${account._id}`,
    idempotencyKey: `${key}-funding-source`,
  });
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
  const after = { ...account, microDeposits, validationVersion: (account.validationVersion ?? 0) + 1 };
  const event = microDepositsSentEvent(after, sentAt.toISOString(), deps.livemode, deposits.sandboxAmountsCents);
  const saved = await changeAccountValidation(deps, account, { microDeposits }, [event]);
  if (saved) deps.events.written();
  return saved;
}

export function microDepositsLocked(checkoutId: string): AppError {
  return new AppError("micro_deposits_locked", `three wrong pairs of amounts were entered for the bank account of checkout ${checkoutId}: it cannot be used; link another account`, {
    param: "checkout_id",
  });
}
