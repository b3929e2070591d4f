import type { Logger } from "@payrail/runtime";
import { getReturnRates } from "./get-return-rates.use-case.ts";
import { envelope, type PaymentEventsDeps } from "../shared/payment-events.ts";
import type { ReturnWarningsPort } from "./ports/return-warnings.port.ts";
import type { TransactionsPort } from "../transactions/ports/transactions.port.ts";
import type { ReturnGroup } from "./return-groups.ts";
import type { TransactionDoc } from "../transactions/transaction.entity.ts";

const GROUPS: readonly ReturnGroup[] = ["unauthorized", "administrative", "overall"];

/**
 * A debit of the merchant was just returned: its rates are computed again, and a group that
 * reached its warning level (80 % of NACHA's threshold) gets one merchant.return_rate_warning,
 * written with the group's warning mark in one conditional write, so racing returns warn once.
 * The mark is cleared once the group's rate is back below the level, so a later rise warns
 * again. Never throws: a rate not computed now is computed at the next return or request.
 */
export async function warnReturnRates(
  deps: PaymentEventsDeps & { transactions: Pick<TransactionsPort, "countDebits" | "countReturns">; returnWarnings: ReturnWarningsPort; logger: Logger; now(): Date },
  returned: TransactionDoc,
): Promise<void> {
  if (!returned.returnGroup) return;
  try {
    const rates = await getReturnRates(deps, returned.merchantId);
    for (const group of GROUPS) {
      const g = rates[group];
      if (g.rate < g.warning_at) {
        await deps.returnWarnings.clear(returned.merchantId, group);
        continue;
      }
      const at = deps.now().toISOString();
      const object = { group, rate: g.rate, threshold: g.threshold, warning_at: g.warning_at, returns: g.returns, debits: rates.debits, window_days: rates.window_days };
      const event = envelope("merchant.return_rate_warning", { type: "merchant", id: returned.merchantId, version: 1 }, returned.merchantId, at, object, deps.livemode);
      if (await deps.returnWarnings.warnOnce(returned.merchantId, group, at, event)) {
        deps.events.written();
        deps.logger.warn({ merchantId: returned.merchantId, group, rate: g.rate, threshold: g.threshold }, "return rate at 80 % of NACHA's threshold");
      }
    }
  } catch (err) {
    deps.logger.warn({ err, merchantId: returned.merchantId }, "return rates not checked for a warning now; the next return checks them");
  }
}
