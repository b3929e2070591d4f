import { RelinkMicroDepositsBody, VerifyRelinkMicroDepositsBody } from "../../http/consumer-subscriptions.schema.ts";
import { BankAccountValidationState } from "../../http/micro-deposits.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/*
 * Micro-deposits to the account a subscription's consumer chose when the bank could not
 * validate it (docs/api-notes.md, Account validation): the consumer's own subscription, named by
 * one of its records, with the consumer's token only (the portal has no link token). With no
 * change pending they act on the account the subscription draws on.
 */

/** Sends the pair (again after expiry); locked: 409 `micro_deposits_locked`. */
export const startRelinkMicroDepositsOp = defineOperation("payments.startRelinkMicroDeposits", RelinkMicroDepositsBody, BankAccountValidationState);

/** The two amounts; right: the subscription switches to the account under its new mandate. */
export const verifyRelinkMicroDepositsOp = defineOperation("payments.verifyRelinkMicroDeposits", VerifyRelinkMicroDepositsBody, BankAccountValidationState);

/** Where the change stands (reads only). */
export const getRelinkValidationOp = defineOperation("payments.getRelinkValidation", RelinkMicroDepositsBody, BankAccountValidationState);
