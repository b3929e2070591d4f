import { operatorPublicId } from "./operator.entity.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { OperatorsPort } from "./ports/operators.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/** A merchant has a handful of operators; the cap only bounds the answer. */
export const MAX_OPERATORS_LISTED = 1000;

/** The merchant's operators, oldest first. */
export async function listOperators(deps: { merchants: MerchantsPort; operators: OperatorsPort; codeKey: Buffer }, merchantId: string) {
  await requireMerchantRecord(deps, merchantId);
  const operators = await deps.operators.listForMerchant(merchantId, MAX_OPERATORS_LISTED);
  return { data: operators.map((o) => ({ id: operatorPublicId(deps.codeKey, o.merchantId, o.phone), merchant_id: o.merchantId, phone: o.phone, created_at: o.createdAt })) };
}
