import { createHmac, randomBytes } from "node:crypto";
import type { SubscribeOptions, Transport } from "@payrail/messaging";
import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { IdentitySmsSender } from "./adapters/identity/identity-sms.sender.ts";
import { SandboxOutboxSender } from "./adapters/sandbox/sandbox-outbox.sender.ts";
import { SmtpEmailSender } from "./adapters/smtp/smtp-email.sender.ts";
import { ConsumerRepository } from "./data-access/consumer.repository.ts";
import { ContactsClient } from "./data-access/contacts.client.ts";
import { NoticeRepository } from "./data-access/notice.repository.ts";
import { ReceiptRepository } from "./data-access/receipt.repository.ts";
import { OptOutRepository } from "./data-access/opt-out.repository.ts";
import { noticeStats } from "./domain/notice-stats.ts";
import type { NoticePolicy, NoticesDeps } from "./domain/notices.deps.ts";
import { subscribeNoticeEvents } from "./entry-points/events/notices.subscriber.ts";
import { noticesHandlers } from "./entry-points/rpc/handlers.ts";
import { NoticeWorker, type NoticeWorkerOptions } from "./worker/notice.worker.ts";
import { createIndexes } from "./indexes.ts";

export { noticeStats, type NoticeOutcome } from "./domain/notice-stats.ts";

export interface NoticesServiceDeps {
  transport: Transport;
  store: Store;
  logger: Logger;
  /** PROVIDERS=live: SMS through identity's provider, and email only with SMTP_URL. Default false (sandbox). */
  livemode?: boolean;
  /** SMTP_URL: email goes out over SMTP. Unset: the sandbox outbox (sandbox), no email (live). */
  smtpUrl?: string | undefined;
  /** SMTP_FROM: the sender of every email. */
  smtpFrom?: string;
  /** Where consumers reach the gateway (PUBLIC_URL): notices link to the portal there. */
  publicUrl: string;
  /**
   * The installation's secrets key: unsubscribe tokens are signed with a key derived from it, so
   * links keep working across restarts and replicas. Absent (tests): a key of this process only.
   */
  secretsKey?: Buffer;
  /** Retry schedule and lease (NOTICE_RETRY_SCHEDULE). */
  policy?: Partial<NoticePolicy>;
  worker?: NoticeWorkerOptions;
  /** The event subscription's retry policy (tests shorten it). */
  subscribe?: SubscribeOptions;
  /** Replaces the clock (tests). */
  now?: () => Date;
}

const MINUTE = 60_000;
/** About 26 hours of tries, so an SMTP outage of hours loses nothing. */
export const DEFAULT_NOTICE_POLICY: NoticePolicy = {
  retryScheduleMs: [10_000, MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 60 * MINUTE, 120 * MINUTE, 240 * MINUTE, 480 * MINUTE, 600 * MINUTE],
  leaseMs: 30_000,
};

/**
 * Composition root of the notices service (docs/decisions/0009-consumer-notices.md): indexes,
 * the RPC queue (the merchant's notices, the sandbox outbox), the subscription that writes the
 * notices events cause, and the worker that sends them.
 */
export async function start(deps: NoticesServiceDeps): Promise<{ name: string; stop(): Promise<void> }> {
  const notices = new NoticeRepository(deps.store);
  await createIndexes(deps.store);
  const receipts = new ReceiptRepository(deps.store);
  const livemode = deps.livemode ?? false;
  const outbox = new SandboxOutboxSender();
  const smtp = deps.smtpUrl ? new SmtpEmailSender({ url: deps.smtpUrl, from: deps.smtpFrom ?? "Payrail <notices@localhost>" }) : null;
  if (livemode && !smtp) deps.logger.warn("SMTP_URL is not set: consumer notices go by SMS only");
  const publicUrl = deps.publicUrl.replace(/\/+$/, "");
  const unsubscribeKey = deps.secretsKey ? createHmac("sha256", deps.secretsKey).update("payrail notices unsubscribe v1").digest() : randomBytes(32);
  const optOuts = new OptOutRepository(deps.store);
  const contacts = new ContactsClient(deps.transport);
  const domain: NoticesDeps = {
    notices,
    consumers: new ConsumerRepository(deps.store),
    contacts,
    sms: livemode ? new IdentitySmsSender(deps.transport) : outbox,
    email: smtp ?? (livemode ? null : outbox),
    policy: { ...DEFAULT_NOTICE_POLICY, ...deps.policy },
    stats: noticeStats,
    portalUrl: `${publicUrl}/account`,
    unsubscribeUrl: `${publicUrl}/notices/unsubscribe/`,
    unsubscribeKey,
    optOuts,
    // Called only once the service serves, after the worker below exists.
    sendClaimed: (notice, until) => worker.sendClaimed(notice, until),
    logger: deps.logger,
    now: deps.now ?? (() => new Date()),
  };
  const worker = new NoticeWorker(domain, deps.worker);
  await deps.transport.serve(
    "notices",
    noticesHandlers({ notices, receipts, sandbox: !livemode, ping: () => deps.store.ping(), unsubscribe: { optOuts, contacts, unsubscribeKey, now: domain.now } }),
  );
  await subscribeNoticeEvents(deps.transport, domain, deps.subscribe);
  worker.start();
  deps.logger.info({ email: smtp ? "smtp" : livemode ? "off" : "sandbox outbox", sms: livemode ? "identity" : "sandbox outbox" }, "notices service started");
  return {
    name: "notices",
    async stop() {
      await worker.stop();
      smtp?.close();
    },
  };
}

export { createIndexes } from "./indexes.ts";
