import { AppError, getBalanceOp, listAuditLogOp, getPayoutOp, listBalanceTransactionsOp, listPayoutsOp, pingOp, requireMerchantWriter, runPayoutsOp } from "@payrail/contracts";
import { handle, type HandlerEntry } from "@payrail/messaging";
import { getBalance } from "../../domain/get-balance.use-case.ts";
import { getPayout, listPayouts } from "../../domain/get-payouts.use-case.ts";
import type { PayoutDeps } from "../../domain/ledger.deps.ts";
import { listAuditLog } from "../../domain/list-audit-log.use-case.ts";
import { listBalanceTransactions } from "../../domain/list-balance-transactions.use-case.ts";
import { runPayouts } from "../../domain/run-payouts.use-case.ts";

/** The ledger service's operations: its whole RPC surface in one list. */
export function ledgerHandlers(deps: PayoutDeps & { ping(): Promise<void>; sandbox: boolean }): HandlerEntry[] {
  return [
    handle(getBalanceOp, (_payload, ctx) => getBalance(deps, ctx.principal)),
    handle(listBalanceTransactionsOp, (payload, ctx) => listBalanceTransactions(deps, ctx.principal, payload)),
    handle(listAuditLogOp, (payload, ctx) => listAuditLog(deps, ctx.principal, payload)),
    handle(listPayoutsOp, (payload, ctx) => listPayouts(deps, ctx.principal, payload)),
    handle(getPayoutOp, (payload, ctx) => getPayout(deps, ctx.principal, payload.id)),
    handle(runPayoutsOp, (_payload, ctx) => {
      if (!deps.sandbox) throw new AppError("route_not_found", "payout runs on demand exist in sandbox mode only");
      return runPayouts(deps, { principal: requireMerchantWriter(ctx.principal), clientIp: ctx.clientIp }, ctx.requestId);
    }),
    handle(pingOp("ledger"), async () => {
      await deps.ping();
      return { service: "ledger", ok: true as const };
    }),
  ];
}
