import { AppError } from "@payrail/contracts";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import { operatorPublicId } from "./operator.entity.ts";
import { phoneFromPath } from "./phone-number.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { OperatorsPort } from "./ports/operators.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/**
 * Removes an operator: one conditional write with its audit entry (a tombstone until the entry
 * is published, skipped by every read), and refunds asks identity on every operator's request,
 * so the removed user's next refund action is refused (403), whatever they did before.
 */
export async function removeOperator(
  deps: { merchants: MerchantsPort; operators: OperatorsPort; codeKey: Buffer; livemode: boolean; events: { written(): void } },
  meta: AuditMeta,
  input: { merchant_id: string; phone: string },
): Promise<{ id: string; merchant_id: string; phone: string; removed: true }> {
  const phone = phoneFromPath(input.phone);
  await requireMerchantRecord(deps, input.merchant_id);
  const id = operatorPublicId(deps.codeKey, input.merchant_id, phone);
  const audit = auditEvents(meta, { service: "identity", merchantId: input.merchant_id, action: "operator.removed", object: { type: "operator", id }, at: nowIso(), livemode: deps.livemode });
  if (!(await deps.operators.remove(input.merchant_id, phone, audit))) {
    throw new AppError("operator_not_found", `${phone} is not an operator of merchant ${input.merchant_id}`, { param: "phone" });
  }
  deps.events.written();
  return { id, merchant_id: input.merchant_id, phone, removed: true };
}
