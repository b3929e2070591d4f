import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseHeldLeases, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { infraVariants } from "../../../test/support/infra.ts";
import { until } from "../../../test/support/until.ts";
import { OptOutRepository } from "../src/data-access/opt-out.repository.ts";
import { NoticeRepository } from "../src/data-access/notice.repository.ts";
import { NoticeStats } from "../src/domain/notice-stats.ts";
import { noticeId, type NoticeDoc } from "../src/domain/notice.entity.ts";
import type { NoticesDeps } from "../src/domain/notices.deps.ts";
import type { EmailMessage, EmailPort } from "../src/domain/ports/senders.port.ts";
import { NoticeWorker } from "../src/worker/notice.worker.ts";

const variants = await infraVariants();

/** Far beyond the test: only a lease given back, never one run out, lets the second worker send. */
const LEASE_MS = 10 * 60_000;

function dueNotice(eventId: string): NoticeDoc {
  const at = new Date().toISOString();
  return {
    _id: noticeId(eventId, "email"),
    merchantId: "mer_drain",
    livemode: false,
    eventId,
    type: "payment_receipt",
    channel: "email",
    to: "j•••@example.com",
    address: "jane@example.com",
    checkoutId: "chk_drain",
    transactionUuid: "sc-drain",
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
  };
}

/**
 * A draining notices process whose send does not finish in time gives its claim back
 * (`releaseHeldLeases`, which `stopOnSignals` calls before the drain bound): another replica
 * sends the notice at once instead of after the claim's lease, and the notice is recorded sent
 * once, by that replica (the first one's late write finds its claim gone).
 */
describe.each(variants)("a notice claim given back on a drain, on $name", (variant) => {
  let store: Store;
  let notices: NoticeRepository;
  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    notices = new NoticeRepository(store);
    await notices.ensureIndexes();
  });
  afterAll(() => variant.cleanup());

  const worker = (email: EmailPort) => {
    const deps: NoticesDeps = {
      notices,
      consumers: { find: async () => null } as never,
      contacts: {} as never,
      sms: { send: async () => ({ ok: false, permanent: true, error: "no sms here" }) },
      email,
      policy: { retryScheduleMs: [60_000], leaseMs: LEASE_MS },
      stats: new NoticeStats(),
      portalUrl: "http://127.0.0.1/account",
      unsubscribeUrl: "http://127.0.0.1/notices/unsubscribe/",
      unsubscribeKey: randomBytes(32),
      optOuts: new OptOutRepository(store),
      noticesWritten: () => undefined,
      logger: silentLogger(),
      now: () => new Date(),
    };
    return new NoticeWorker(deps, { pollMs: 50 });
  };

  it.skipIf(!!variant.skipReason)("lets another worker send a notice at once when the draining one gives its claim back", async () => {
    const doc = dueNotice(`evt_drain_${Date.now()}`);
    await notices.insert(doc);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stuckSends: EmailMessage[] = [];
    const stuck = worker({
      async send(message) {
        stuckSends.push(message);
        await held;
        return { ok: true, providerMessageId: "from-the-stuck-worker" };
      },
    });
    stuck.start();
    await until("the first worker to be sending", () => stuckSends.length === 1);
    const stopping = stuck.stop();

    expect(await releaseHeldLeases()).toBeGreaterThanOrEqual(1);
    const sends: EmailMessage[] = [];
    const other = worker({
      async send(message) {
        sends.push(message);
        return { ok: true, providerMessageId: "from-the-other-worker" };
      },
    });
    other.start();
    await until("the other worker to send the notice", async () => (await notices.find(doc._id))?.status === "sent");
    await other.stop();
    expect(sends.map((m) => m.noticeId)).toEqual([doc._id]);

    // The stuck send ends late: its write finds the claim gone, and the notice stays as sent once.
    release();
    await stopping;
    expect(await notices.find(doc._id)).toMatchObject({ status: "sent", attempts: 1, providerMessageId: "from-the-other-worker", leaseId: null });
  });
});
