import { AppError, type Mandate, type MerchantPrincipal } from "@payrail/contracts";
import { toMandateView } from "./mandate.entity.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";

/** One mandate, to the merchant of its checkout; to any other it does not exist. */
export async function getMandate(deps: { mandates: Pick<MandatesPort, "find"> }, merchant: MerchantPrincipal, mandateId: string): Promise<Mandate> {
  const mandate = await deps.mandates.find(mandateId);
  if (!mandate || mandate.merchantId !== merchant.merchantId) {
    throw new AppError("mandate_not_found", `no mandate ${mandateId}`, { param: "mandate_id" });
  }
  return toMandateView(mandate);
}
