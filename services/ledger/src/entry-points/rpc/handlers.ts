import { getBalanceOp, listBalanceTransactionsOp, pingOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import { getBalance } from "../../domain/get-balance.use-case.ts";
import type { LedgerDeps } from "../../domain/ledger.deps.ts";
import { listBalanceTransactions } from "../../domain/list-balance-transactions.use-case.ts";

/** The ledger service's operations: its whole RPC surface in one list. */
export function ledgerHandlers(deps: LedgerDeps & { ping(): Promise<void> }): HandlerEntry[] {
  return [
    handle(getBalanceOp, (_payload, ctx) => getBalance(deps, ctx.principal)),
    handle(listBalanceTransactionsOp, (payload, ctx) => listBalanceTransactions(deps, ctx.principal, payload)),
    handle(pingOp("ledger"), async () => {
      await deps.ping();
      return { service: "ledger", ok: true as const };
    }),
  ];
}
