import type { CheckoutsPort } from "../../domain/ports/checkouts.port.ts";
import type { LinkTokensPort } from "../../domain/ports/link-tokens.port.ts";

/** What the checkout handlers need, built by the composition root. */
export interface CheckoutDeps {
  checkouts: CheckoutsPort;
  linkTokens: LinkTokensPort;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
