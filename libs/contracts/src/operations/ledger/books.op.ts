import { BalanceQuery, BalanceResponse, BalanceTransactionListQuery, BalanceTransactionListResponse } from "../../http/books.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** The calling merchant's balance: available and pending. */
export const getBalanceOp = defineOperation("ledger.getBalance", BalanceQuery, BalanceResponse);

/** The calling merchant's balance transactions, newest first, with the list's filters. */
export const listBalanceTransactionsOp = defineOperation("ledger.listBalanceTransactions", BalanceTransactionListQuery, BalanceTransactionListResponse);
