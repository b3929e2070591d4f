import type { NoticesPort } from "../../domain/ports/notices.port.ts";
import type { ReceiptsPort } from "../../domain/ports/receipts.port.ts";
import type { UnsubscribeDeps } from "../../domain/unsubscribe.use-case.ts";

/** What the notices handlers need, built by the composition root. */
export interface NoticesHandlerDeps {
  notices: NoticesPort;
  /** The consumer portal's receipts. */
  receipts: ReceiptsPort;
  /** PROVIDERS=sandbox: the sandbox outbox route answers. */
  sandbox: boolean;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
  /** Unsubscribe links: the opt-outs, the key tokens are signed with, the merchant's name. */
  unsubscribe: UnsubscribeDeps;
}
