import type { CountryCode } from "libphonenumber-js";
import { operatorId } from "./operator.entity.ts";
import { normalisePhone } from "./phone-number.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import type { OperatorsPort } from "./ports/operators.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

/**
 * Registers a phone as an operator of a merchant. The phone is normalised like Send Code's,
 * so the E.164 number a verified user's token carries matches whatever form the admin typed.
 */
export async function addOperator(
  deps: { merchants: MerchantsPort; operators: OperatorsPort; defaultPhoneCountry: CountryCode; now(): number },
  input: { merchant_id: string; phone: string },
): Promise<{ merchant_id: string; phone: string }> {
  const phone = normalisePhone(input.phone, deps.defaultPhoneCountry);
  await requireMerchantRecord(deps, input.merchant_id);
  await deps.operators.add({
    _id: operatorId(input.merchant_id, phone),
    merchantId: input.merchant_id,
    phone,
    createdAt: new Date(deps.now()).toISOString(),
  });
  return { merchant_id: input.merchant_id, phone };
}
