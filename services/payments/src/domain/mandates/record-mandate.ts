import { AppError, type CheckoutSummary } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { mandateEvent } from "./mandate-events.ts";
import type { AccountValidationRecord } from "../bank-accounts/account-validation.ts";
import type { MandateRecord } from "./mandate.entity.ts";
import { MANDATE_TEXT_VERSION, renderMandateText } from "./mandate-text.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";

export interface Acceptance {
  textVersion: string;
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * A text version the consumer could not have been shown now: 400, before anything is written.
 * `current` is the wording of the flow: a checkout's payment, or a subscription's change of account.
 */
export function checkTextVersion(textVersion: string, current = MANDATE_TEXT_VERSION): void {
  if (textVersion !== current) {
    throw new AppError("mandate_text_outdated", `mandate.text_version must be the current version ${current}; show the text again`, {
      param: "mandate.text_version",
    });
  }
}

/**
 * The consumer's mandate as accepted now: the words re-rendered server-side for this checkout
 * (their hash is what was agreed to), `one_off` or `recurring` from the checkout.
 */
export function buildConsumerMandate(
  merchantName: string,
  checkout: Pick<CheckoutSummary, "id" | "merchant_id" | "amount_cents" | "currency" | "is_subscription" | "plan_type">,
  userId: string,
  acceptance: Acceptance,
  bankAccount: MandateRecord["bankAccount"],
  at: Date,
  /** The first debit it authorizes: at once (`at`) for a checkout, the next period for a re-linked subscription. */
  firstDebitOn: Date = at,
  /** The account's validation as linked; null until micro-deposits validate it. */
  validation: AccountValidationRecord | null = null,
): MandateRecord {
  // The version accepted (checkTextVersion made sure it is the flow's current one).
  const rendered = renderMandateText({ merchantName, checkout, firstDebitOn }, acceptance.textVersion);
  if (!rendered) throw new AppError("mandate_text_outdated", `no mandate text version ${acceptance.textVersion}`, { param: "mandate.text_version" });
  return {
    _id: prefixedHexId("mdt_"),
    checkoutId: checkout.id,
    merchantId: checkout.merchant_id,
    userId,
    type: checkout.is_subscription ? "recurring" : "one_off",
    status: "active",
    textVersion: rendered.text_version,
    textSha256: rendered.sha256,
    acceptedAt: at.toISOString(),
    ...(firstDebitOn.getTime() !== at.getTime() ? { firstDebitOn: firstDebitOn.toISOString() } : {}),
    ipAddress: acceptance.ipAddress,
    userAgent: acceptance.userAgent,
    bankAccount,
    lastDebitAt: null,
    revokedAt: null,
    version: 1,
    validation,
  };
}

/** Stores a new mandate with its mandate.created event (which the checkout follows for `mandate_id`). */
export async function storeMandate(deps: PaymentEventsDeps & { mandates: Pick<MandatesPort, "create"> }, mandate: MandateRecord): Promise<boolean> {
  const created = await deps.mandates.create(mandate, mandateEvent("mandate.created", mandate, mandate.acceptedAt, deps.livemode));
  if (created) deps.events.written();
  return created;
}
