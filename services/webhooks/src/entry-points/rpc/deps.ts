import type { WebhooksDeps as DomainDeps } from "../../domain/webhooks.deps.ts";

/** What the webhooks handlers need, built by the composition root. */
export interface WebhooksDeps extends DomainDeps {
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
