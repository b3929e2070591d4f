import { RelinkBankAccountBody, RelinkBankAccountResponse } from "../../http/consumer-subscriptions.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";
import { MandateClient } from "./exchange-public-token.op.ts";

/**
 * The consumer replaces the bank account their subscription draws on: exchange, funding source
 * (a blocked account: 409 `bank_account_blocked`), a new recurring mandate (the previous one
 * revoked), and an `unpaid` subscription active again from its next period.
 */
export const relinkBankAccountOp = defineOperation("payments.relinkBankAccount", RelinkBankAccountBody.extend({ client: MandateClient.optional() }), RelinkBankAccountResponse);
