import type { ClaimsPort } from "../../domain/ports/claims.port.ts";
import type { TransferDeps } from "../../domain/transfer.deps.ts";

/** What the payments handlers need, built by the composition root. */
export interface PaymentsDeps extends TransferDeps {
  claims: ClaimsPort;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
