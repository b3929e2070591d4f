import { z } from "zod";
import { BankAccountValidationState, MicroDepositAmounts } from "../../http/micro-deposits.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The consumer's checkout: named by the link token, or by both (which must agree). */
const ConsumerCheckout = z.object({ checkout_id: z.string().min(1).max(64).optional(), link_token: z.string().min(1).max(512) });

/**
 * Starts micro-deposits to the bank account linked to the consumer's checkout (docs/api-notes.md,
 * Account validation): two credits under $1 and their offsetting debit, sent once however many
 * calls race. An account validated already: 409 `bank_account_already_validated`; locked: 409
 * `micro_deposits_locked`. Answers where the account stands.
 */
export const startMicroDepositsOp = defineOperation("payments.startMicroDeposits", ConsumerCheckout, BankAccountValidationState);

/**
 * Verifies the two amounts (in any order). A wrong pair counts a try (the third locks the
 * account: 409 `micro_deposits_locked`); after 10 days, 409 `micro_deposits_expired`.
 */
export const verifyMicroDepositsOp = defineOperation("payments.verifyMicroDeposits", ConsumerCheckout.extend({ amounts: MicroDepositAmounts }), BankAccountValidationState);
