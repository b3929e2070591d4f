import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import { NoticeRepository } from "../../src/data-access/notice.repository.ts";
import { OptOutRepository } from "../../src/data-access/opt-out.repository.ts";
import { NoticeStats } from "../../src/domain/notice-stats.ts";
import { noticeId, type NoticeDoc } from "../../src/domain/notice.entity.ts";
import type { NoticesDeps } from "../../src/domain/notices.deps.ts";

/** A queued email notice, due at `at`, under no claim: as a retry or a given-back claim leaves one. */
export function queuedNotice(eventId: string, at: string, fields: Partial<NoticeDoc> = {}): NoticeDoc {
  return {
    _id: noticeId(eventId, "email"),
    merchantId: "mer_1",
    livemode: false,
    eventId,
    type: "payment_receipt",
    channel: "email",
    to: "j•••@example.com",
    address: "jane@example.com",
    checkoutId: "chk_1",
    transactionUuid: "sc-1",
    subject: "Receipt",
    body: "Paid",
    html: "<p>Paid</p>",
    optional: false,
    status: "queued",
    attempts: 0,
    dueAt: at,
    leaseId: null,
    lastError: null,
    providerMessageId: null,
    createdAt: at,
    sentAt: null,
    ...fields,
  };
}

/** The variant's store and the notices repository on it, opened before the suite's tests and closed after. */
export function noticeStore(variant: InfraVariant): { store(): Store; notices(): NoticeRepository } {
  let store: Store;
  let notices: NoticeRepository;
  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    notices = new NoticeRepository(store);
    await notices.ensureIndexes();
  });
  afterAll(() => variant.cleanup());
  return { store: () => store, notices: () => notices };
}

/** The notices use cases' deps on a real store; ports the test does not reach throw when used. */
export function testNoticesDeps(store: Store, notices: NoticeRepository, fields: Partial<NoticesDeps>): NoticesDeps {
  const unreached = (port: string) =>
    new Proxy({}, {
      get: () => {
        throw new Error(`this test does not use ${port}`);
      },
    }) as never;
  return {
    notices,
    consumers: unreached("consumers"),
    contacts: unreached("contacts"),
    sms: unreached("sms"),
    email: null,
    policy: { retryScheduleMs: [60_000], leaseMs: 30_000 },
    stats: new NoticeStats(),
    portalUrl: "http://127.0.0.1/account",
    unsubscribeUrl: "http://127.0.0.1/notices/unsubscribe/",
    unsubscribeKey: randomBytes(32),
    optOuts: new OptOutRepository(store),
    sendClaimed: () => undefined,
    logger: silentLogger(),
    now: () => new Date(),
    ...fields,
  };
}
