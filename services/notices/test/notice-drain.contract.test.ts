import { describe, expect, it } from "vitest";
import { releaseHeldLeases } from "@payrail/runtime";
import { infraVariants } from "../../../test/support/infra.ts";
import { until } from "../../../test/support/until.ts";
import type { EmailMessage, EmailPort } from "../src/domain/ports/senders.port.ts";
import { NoticeWorker } from "../src/worker/notice.worker.ts";
import { noticeStore, queuedNotice, testNoticesDeps } from "./support/notice-fixtures.ts";

const variants = await infraVariants();

/** Far beyond the test: only a lease given back, never one run out, lets the second worker send. */
const LEASE_MS = 10 * 60_000;

/**
 * A draining notices process whose send does not finish in time gives its claim back
 * (`releaseHeldLeases`, which `stopOnSignals` calls before the drain bound): another replica
 * sends the notice at once instead of after the claim's lease, and the notice is recorded sent
 * once, by that replica (the first one's late write finds its claim gone).
 */
describe.each(variants)("a notice claim given back on a drain, on $name", (variant) => {
  const fixture = noticeStore(variant);

  const worker = (email: EmailPort) =>
    new NoticeWorker(testNoticesDeps(fixture.store(), fixture.notices(), { email, policy: { retryScheduleMs: [60_000], leaseMs: LEASE_MS } }), { pollMs: 50 });

  it.skipIf(!!variant.skipReason)("lets another worker send a notice at once when the draining one gives its claim back", async () => {
    const notices = fixture.notices();
    const doc = queuedNotice(`evt_drain_${Date.now()}`, new Date().toISOString(), { merchantId: "mer_drain", checkoutId: "chk_drain", transactionUuid: "sc-drain" });
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
