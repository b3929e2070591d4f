import type { RefundsDeps as DomainDeps } from "../../domain/refunds.deps.ts";

/** What the refunds handlers need, built by the composition root. */
export interface RefundsDeps extends DomainDeps {
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
