import type { OperatorsPort } from "./ports/operators.port.ts";

/**
 * Whether the phone is an operator of the merchant. The phone comes from a resolved auth
 * token (already E.164), so it is compared as is: a malformed one simply matches nothing.
 */
export async function isOperator(
  deps: { operators: OperatorsPort },
  input: { merchant_id: string; phone: string },
): Promise<{ operator: boolean }> {
  return { operator: await deps.operators.isOperator(input.merchant_id, input.phone) };
}
