import type { NoticesPort } from "../../domain/ports/notices.port.ts";

/** What the notices handlers need, built by the composition root. */
export interface NoticesHandlerDeps {
  notices: NoticesPort;
  /** PROVIDERS=sandbox: the sandbox outbox route answers. */
  sandbox: boolean;
  /** Readiness: resolves when this service's database answers. */
  ping(): Promise<void>;
}
