import type { MerchantsPort } from "../../domain/ports/merchants.port.ts";

/** What the identity handlers need, built by the composition root. */
export interface IdentityDeps {
  merchants: MerchantsPort;
  /** Live installations issue `sk_live_` keys, sandbox ones `sk_test_`. */
  livemode: boolean;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
