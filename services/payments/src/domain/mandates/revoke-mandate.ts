import { mandateEvent } from "./mandate-events.ts";
import type { MandateRecord } from "./mandate.entity.ts";
import type { PaymentEventsDeps } from "../shared/payment-events.ts";
import type { MandatesPort } from "./ports/mandates.port.ts";

/**
 * Revokes a mandate in one conditional write (`active` → `revoked`) with its mandate.revoked
 * event. Already revoked or absent: nothing is written, and a repeat is harmless.
 */
export async function revokeMandate(
  deps: PaymentEventsDeps & { mandates: Pick<MandatesPort, "find" | "revoke"> },
  mandateId: string,
  at: string,
): Promise<MandateRecord | null> {
  const current = await deps.mandates.find(mandateId);
  if (!current || current.status !== "active") return null;
  const after: MandateRecord = { ...current, status: "revoked", revokedAt: at, version: 2 };
  const revoked = await deps.mandates.revoke(mandateId, at, mandateEvent("mandate.revoked", after, at, deps.livemode));
  if (revoked) deps.events.written();
  return revoked;
}
