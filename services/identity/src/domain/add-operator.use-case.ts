import type { CountryCode } from "libphonenumber-js";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import { operatorId, operatorPublicId } from "./operator.entity.ts";
import { normalisePhone } from "./phone-number.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { OperatorsPort } from "./ports/operators.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/**
 * Registers a phone as an operator of a merchant. The phone is normalised like Send Code's,
 * so the E.164 number a verified user's token carries matches whatever form the admin typed.
 * The record carries its audit entry; a phone that is an operator already changes nothing and
 * records nothing.
 */
export async function addOperator(
  deps: { merchants: MerchantsPort; operators: OperatorsPort; defaultPhoneCountry: CountryCode; codeKey: Buffer; livemode: boolean; events: { written(): void } },
  meta: AuditMeta,
  input: { merchant_id: string; phone: string },
): Promise<{ id: string; merchant_id: string; phone: string }> {
  const phone = normalisePhone(input.phone, deps.defaultPhoneCountry);
  await requireMerchantRecord(deps, input.merchant_id);
  const id = operatorPublicId(deps.codeKey, input.merchant_id, phone);
  const at = nowIso();
  const audit = auditEvents(meta, { service: "identity", merchantId: input.merchant_id, action: "operator.added", object: { type: "operator", id }, at, livemode: deps.livemode });
  if (await deps.operators.add({ _id: operatorId(input.merchant_id, phone), merchantId: input.merchant_id, phone, createdAt: at }, audit)) deps.events.written();
  return { id, merchant_id: input.merchant_id, phone };
}
