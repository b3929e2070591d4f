import type { CheckoutsPort } from "../../domain/shared/ports/checkouts.port.ts";
import type { TransferAttemptsPort } from "../../domain/transfers/ports/transfer-attempts.port.ts";
import type { PaymentMethodsPort } from "../../domain/bank-accounts/ports/payment-methods.port.ts";
import type { MandatesPort } from "../../domain/mandates/ports/mandates.port.ts";
import type { ClaimsPort } from "../../domain/bank-accounts/ports/claims.port.ts";
import type { RenewalDeps } from "../../domain/renewals/renewal.deps.ts";
import type { ReconcileDeps } from "../../domain/reconciliation/reconcile.use-case.ts";
import type { EvidenceDeps } from "../../domain/fraud/fraud-evidence.use-case.ts";
import type { PayoutDeps, RefundPayoutDeps, SimulateDeps, TransferDeps, WebhookDeps } from "../../domain/transfers/transfer.deps.ts";

/**
 * What the payments handlers need, built by the composition root: the union of what its use
 * cases need (each handler passes the whole, each use case names only its part).
 */
export interface PaymentsDeps extends TransferDeps, WebhookDeps, SimulateDeps, RefundPayoutDeps, PayoutDeps, RenewalDeps, ReconcileDeps, EvidenceDeps {
  checkouts: CheckoutsPort;
  attempts: TransferAttemptsPort;
  claims: ClaimsPort;
  mandates: MandatesPort;
  paymentMethods: PaymentMethodsPort;
  /** RECONCILE_AFTER: a pass looks at what has been pending longer than this. */
  reconcileAfterMs: number;
  /** How long one pass may hold the reconciler's lease. */
  reconcileLeaseMs: number;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
