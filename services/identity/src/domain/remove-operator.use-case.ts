import { AppError } from "@payrail/contracts";
import { phoneFromPath } from "./phone-number.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { OperatorsPort } from "./ports/operators.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/**
 * Removes an operator: one delete, and refunds asks identity on every operator's request, so
 * the removed user's next refund action is refused (403), whatever they did before.
 */
export async function removeOperator(
  deps: { merchants: MerchantsPort; operators: OperatorsPort },
  input: { merchant_id: string; phone: string },
): Promise<{ merchant_id: string; phone: string; removed: true }> {
  const phone = phoneFromPath(input.phone);
  await requireMerchantRecord(deps, input.merchant_id);
  if (!(await deps.operators.remove(input.merchant_id, phone))) {
    throw new AppError("operator_not_found", `${phone} is not an operator of merchant ${input.merchant_id}`, { param: "phone" });
  }
  return { merchant_id: input.merchant_id, phone, removed: true };
}
