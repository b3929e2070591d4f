import { AppError, requireService } from "@payrail/contracts";
import { sha256Hex } from "@payrail/runtime";
import { renderMandateText } from "./mandate-text.ts";
import type { CheckoutsPort, RequestMeta } from "../shared/ports/checkouts.port.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";
import type { MerchantsPort } from "../shared/ports/merchants.port.ts";

/**
 * For the notices service only (the consumer's copy of the authorization): the mandate's words
 * rendered again from the facts it was accepted with, given only when they hash to what the
 * mandate recorded (else null, as for a `merchant_attested` one, which has no Payrail words).
 */
export async function getMandateCopy(
  deps: { mandates: Pick<MandatesPort, "find">; merchants: Pick<MerchantsPort, "merchantName">; checkouts: Pick<CheckoutsPort, "getSummary"> },
  meta: RequestMeta,
  mandateId: string,
) {
  requireService(meta.principal);
  const mandate = await deps.mandates.find(mandateId);
  if (!mandate) throw new AppError("mandate_not_found", `no mandate ${mandateId}`, { param: "mandate_id" });
  const firstDebitOn = mandate.firstDebitOn ?? mandate.acceptedAt;
  let text: string | null = null;
  if (mandate.textSha256 && mandate.textVersion) {
    const [merchantName, checkout] = await Promise.all([deps.merchants.merchantName(meta, mandate.merchantId), deps.checkouts.getSummary(meta, mandate.checkoutId)]);
    // The words of the version it was accepted under, however the wording has moved on since.
    const rendered = renderMandateText({ merchantName, checkout, firstDebitOn: new Date(firstDebitOn) }, mandate.textVersion)?.text;
    if (rendered && sha256Hex(rendered) === mandate.textSha256) text = rendered;
  }
  return {
    mandate_id: mandate._id,
    checkout_id: mandate.checkoutId,
    merchant_id: mandate.merchantId,
    user_id: mandate.userId,
    type: mandate.type,
    text,
    first_debit_on: firstDebitOn,
  };
}
