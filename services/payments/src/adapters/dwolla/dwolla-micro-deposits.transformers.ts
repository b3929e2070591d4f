import { DwollaErrorBody, toDwollaAmount, type DwollaFailure } from "./dwolla.transformers.ts";

/** The body of Dwolla's verify call: `POST /funding-sources/{id}/micro-deposits` with the two amounts. */
export function toVerifyMicroDepositsBody(amountsCents: readonly [number, number]): Record<string, unknown> {
  return { amount1: toDwollaAmount(amountsCents[0], "USD"), amount2: toDwollaAmount(amountsCents[1], "USD") };
}

/**
 * Dwolla's answer to a wrong pair: 400 `ValidationError` whose field errors name the amounts
 * ("Wrong amount(s).", path `/amount1/value` or `/amount2/value`). Any other refusal (too many
 * attempts, deposits not yet settled or expired: `InvalidResourceState`) is not a wrong pair.
 */
export function isWrongMicroDepositAmounts(failure: DwollaFailure): boolean {
  if (failure.status !== 400) return false;
  const body = DwollaErrorBody.safeParse(failure.body);
  if (!body.success || body.data.code !== "ValidationError") return false;
  return (body.data._embedded?.errors ?? []).some((e) => /^\/amount[12]\//.test(e.path ?? ""));
}
