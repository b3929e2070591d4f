import type { Logger } from "@payrail/runtime";
import type { BankDataPort } from "../../domain/ports/bank-data.port.ts";
import type { CheckoutsPort } from "../../domain/ports/checkouts.port.ts";
import type { ClaimsPort } from "../../domain/ports/claims.port.ts";
import type { PaymentMethodsPort } from "../../domain/ports/payment-methods.port.ts";
import type { SecretBox } from "../../domain/secret-box.ts";

/** What the payments handlers need, built by the composition root. */
export interface PaymentsDeps {
  checkouts: CheckoutsPort;
  claims: ClaimsPort;
  paymentMethods: PaymentMethodsPort;
  bankData: BankDataPort;
  secretBox: SecretBox;
  logger: Logger;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
