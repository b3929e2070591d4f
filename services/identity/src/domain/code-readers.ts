import type { ConsumerMerchantsPort } from "./ports/consumer-merchants.port.ts";
import type { OperatorsPort } from "./ports/operators.port.ts";
import type { UsersPort } from "./ports/users.port.ts";

export interface CodeReadersDeps {
  users: Pick<UsersPort, "findByPhone">;
  consumerMerchants: ConsumerMerchantsPort;
  operators: Pick<OperatorsPort, "isOperator" | "merchantsOf">;
}

/**
 * Whether a sandbox merchant may read the codes texted to a phone (docs/api-notes.md, Limits): when the phone
 * is its own consumer's (a bank account saved on one of its checkouts) or its operator's. A
 * phone that is nobody's yet (never paid any merchant, nobody's operator) is readable by any
 * merchant: its first code is read before any checkout can be its own, and no tenant's data
 * hangs on it. Once it pays merchant A, merchant B gets 404 as if nothing had been sent.
 */
export async function mayReadCodes(deps: CodeReadersDeps, merchantId: string, phone: string): Promise<boolean> {
  const user = await deps.users.findByPhone(phone);
  if (user && (await deps.consumerMerchants.pays(user._id, merchantId))) return true;
  if (await deps.operators.isOperator(merchantId, phone)) return true;
  const someonesConsumer = user ? await deps.consumerMerchants.paysAny(user._id) : false;
  return !someonesConsumer && (await deps.operators.merchantsOf(phone, 1)).length === 0;
}
