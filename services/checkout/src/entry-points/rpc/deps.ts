import type { CheckoutEventsPort } from "../../domain/ports/checkout-events.port.ts";
import type { CheckoutsPort } from "../../domain/ports/checkouts.port.ts";
import type { LinkTokensPort } from "../../domain/ports/link-tokens.port.ts";

/** What the checkout handlers need, built by the composition root. */
export interface CheckoutDeps {
  checkouts: CheckoutsPort;
  linkTokens: LinkTokensPort;
  /** Told after every write that stored events, so they are published at once. */
  events: CheckoutEventsPort;
  /** Whether this deployment moves real money: the `livemode` of the checkout events. */
  livemode: boolean;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
