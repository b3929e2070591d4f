import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AnyDomainEvent } from "@payrail/contracts";
import { infraVariants } from "../../../test/support/infra.ts";
import { until } from "../../../test/support/until.ts";
import { ConsumerRepository } from "../src/data-access/consumer.repository.ts";
import { noticeId, type NoticeDoc } from "../src/domain/notice.entity.ts";
import type { NoticesDeps } from "../src/domain/notices.deps.ts";
import type { ContactsPort } from "../src/domain/ports/contacts.port.ts";
import type { SmsNoticePort } from "../src/domain/ports/senders.port.ts";
import { recordNotices } from "../src/domain/record-notices.use-case.ts";
import { NoticeWorker } from "../src/worker/notice.worker.ts";
import { noticeStore, testNoticesDeps } from "./support/notice-fixtures.ts";

const variants = await infraVariants();

const LEASE_MS = 30_000;
const T0 = Date.parse("2026-03-02T12:00:00.000Z");

/** The owners' answers, as identity and checkout give them over RPC. */
const contacts: ContactsPort = {
  noticeContacts: async () => ({ merchant: { name: "Claim Goods", supportEmail: null, supportPhone: null }, phoneMasked: "+1 •••-•••-0101" }),
  recipient: async () => ({ email: null, amountCents: 1_250, currency: "usd", isSubscription: false, planType: null, subscriptionUuid: null }),
  mandateCopy: async () => {
    throw new Error("no mandate in these tests");
  },
};

function settled(eventId: string, checkoutId: string, userId = "usr_claim"): AnyDomainEvent {
  return {
    id: eventId,
    type: "transaction.completed",
    merchant_id: "mer_claim",
    livemode: false,
    created: T0 / 1000,
    data: { object: { transaction_uuid: `sc-${eventId}`, transaction_status: "completed", checkout: checkoutId, user_id: userId, amount: "12.50" } },
  } as unknown as AnyDomainEvent;
}

/**
 * A notice is written already claimed by the process that handles its cause, which sends it at
 * once (no claim write, no poll). What that must not lose: a writer that dies between the insert
 * and the send leaves a notice the poll takes only when the claim runs out, and a writer with no
 * room to send gives the claim back, so the poll takes it now.
 */
describe.each(variants)("notices claimed at their insert, on $name", (variant) => {
  const fixture = noticeStore(variant);
  let clock = T0;

  const depsWith = (sms: SmsNoticePort, sendClaimed: NoticesDeps["sendClaimed"]): NoticesDeps =>
    testNoticesDeps(fixture.store(), fixture.notices(), {
      consumers: new ConsumerRepository(fixture.store()),
      contacts,
      sms,
      policy: { retryScheduleMs: [60_000], leaseMs: LEASE_MS },
      sendClaimed,
      now: () => new Date(clock),
    });
  const sentTo: string[] = [];
  const sms: SmsNoticePort = {
    async send(to) {
      sentTo.push(to);
      return { ok: true, providerMessageId: `sms_${sentTo.length}` };
    },
  };

  it.skipIf(!!variant.skipReason)("sends a new notice at once from the process that wrote it, under the claim written with it", async () => {
    const notices = fixture.notices();
    clock = T0;
    const eventId = `evt_claim_now_${randomBytes(4).toString("hex")}`;
    const claimed: NoticeDoc[] = [];
    const deps = depsWith(sms, (doc, leaseUntil) => {
      claimed.push(doc);
      worker.sendClaimed(doc, leaseUntil);
    });
    const worker = new NoticeWorker(deps, { pollMs: 3_600_000 });
    // The worker never polls here (never started): only the write's own claim can send it.
    await recordNotices(deps, settled(eventId, `chk_${eventId}`));
    expect(claimed.map((n) => n.leaseId)).toEqual([expect.stringMatching(/^lease_/)]);
    expect(claimed[0]!.dueAt).toBe(new Date(T0 + LEASE_MS).toISOString());
    await until("the notice to be recorded sent", async () => (await notices.find(noticeId(eventId, "sms")))?.status === "sent");
    expect(await notices.find(noticeId(eventId, "sms"))).toMatchObject({ status: "sent", attempts: 1, leaseId: null });
    // The same event again writes and sends nothing.
    const before = sentTo.length;
    await recordNotices(deps, settled(eventId, `chk_${eventId}`));
    expect(claimed).toHaveLength(1);
    expect(sentTo).toHaveLength(before);
    await worker.stop();
  });

  it.skipIf(!!variant.skipReason)("leaves a dead writer's notice to the poll once its claim runs out, and sends it once", async () => {
    const notices = fixture.notices();
    clock = T0;
    const eventId = `evt_claim_dead_${randomBytes(4).toString("hex")}`;
    // The writer dies after the insert: nothing is sent by it.
    await recordNotices(
      depsWith(sms, () => undefined),
      settled(eventId, `chk_${eventId}`),
    );
    const id = noticeId(eventId, "sms");
    const due = (at: number) => notices.due(new Date(at).toISOString(), 1_000).then((d) => d.map((n) => n._id));
    expect(await due(T0 + LEASE_MS - 1)).not.toContain(id);
    expect(await due(T0 + LEASE_MS)).toContain(id);

    clock = T0 + LEASE_MS + 1;
    const before = sentTo.length;
    const poller = new NoticeWorker(
      depsWith(sms, () => undefined),
      { pollMs: 20 },
    );
    poller.start();
    await until("the poll to send the dead writer's notice", async () => (await notices.find(id))?.status === "sent");
    await poller.stop();
    expect(sentTo.length - before).toBe(1);
    expect(await notices.find(id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it.skipIf(!!variant.skipReason)("gives the claim back when the writer has no room to send or queue it, so the poll takes it now", async () => {
    const notices = fixture.notices();
    clock = T0;
    const eventId = `evt_claim_full_${randomBytes(4).toString("hex")}`;
    const deps = depsWith(sms, (doc, until) => worker.sendClaimed(doc, until));
    const worker = new NoticeWorker(deps, { pollMs: 3_600_000, maxInFlight: 0, maxWaiting: 0 });
    await recordNotices(deps, settled(eventId, `chk_${eventId}`));
    const id = noticeId(eventId, "sms");
    await until("the claim to be given back", async () => (await notices.due(new Date(T0).toISOString(), 1_000)).some((n) => n._id === id));
    expect(await notices.find(id)).toMatchObject({ status: "queued", attempts: 0, sentAt: null });
    await worker.stop();
  });

  it.skipIf(!!variant.skipReason)("queues its own claims while every slot is busy, sends them as slots free, and gives the rest back when it stops", async () => {
    const notices = fixture.notices();
    clock = T0;
    const tag = randomBytes(4).toString("hex");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sends: string[] = [];
    const slow: SmsNoticePort = {
      async send(to) {
        sends.push(to);
        if (sends.length === 1) await held;
        return { ok: true, providerMessageId: `sms_slow_${sends.length}` };
      },
    };
    const deps = depsWith(slow, (doc, leaseUntil) => worker.sendClaimed(doc, leaseUntil));
    // One slot, room for two claims to wait; never polls.
    const worker = new NoticeWorker(deps, { pollMs: 3_600_000, maxInFlight: 1, maxWaiting: 2 });
    const ids = [0, 1, 2, 3].map((i) => noticeId(`evt_claim_q${i}_${tag}`, "sms"));
    // Its own consumer: the look also finds what earlier tests left due in this store.
    const user = `usr_q_${tag}`;
    for (const i of [0, 1, 2, 3]) await recordNotices(deps, settled(`evt_claim_q${i}_${tag}`, `chk_q${i}_${tag}`, user));
    const dueNow = async () => (await notices.due(new Date(T0).toISOString(), 1_000)).map((n) => n._id);
    // The fourth found the queue full: its claim was given back.
    await until("the fourth claim to be given back", async () => (await dueNow()).includes(ids[3]!));
    expect(await dueNow()).not.toContain(ids[1]);
    expect(sends.filter((to) => to === user)).toHaveLength(1);
    release();
    // The queued two as the slot frees, then the given-back one, found due by the look after them.
    await until("all four to be sent", async () => (await Promise.all(ids.map((id) => notices.find(id)))).every((n) => n?.status === "sent"));
    expect(sends.filter((to) => to === user)).toHaveLength(4);
    for (const id of ids) expect(await notices.find(id)).toMatchObject({ status: "sent", attempts: 1 });
    await worker.stop();

    // Stopping with claims queued gives them back.
    let hold!: () => void;
    const blocked = new Promise<void>((resolve) => (hold = resolve));
    let first = true;
    const stuck: SmsNoticePort = {
      async send() {
        if (first) {
          first = false;
          await blocked;
        }
        return { ok: true, providerMessageId: "sms_stuck" };
      },
    };
    const deps2 = depsWith(stuck, (doc, leaseUntil) => second.sendClaimed(doc, leaseUntil));
    const second = new NoticeWorker(deps2, { pollMs: 3_600_000, maxInFlight: 1, maxWaiting: 5 });
    const more = [4, 5].map((i) => noticeId(`evt_claim_q${i}_${tag}`, "sms"));
    for (const i of [4, 5]) await recordNotices(deps2, settled(`evt_claim_q${i}_${tag}`, `chk_q${i}_${tag}`));
    expect(await dueNow()).not.toContain(more[1]);
    const stopping = second.stop();
    await until("the queued claim to be given back", async () => (await dueNow()).includes(more[1]!));
    hold();
    await stopping;
  });
});
