import { insertIfAbsent, olderThan, type Filter, type Store } from "@payrail/store";
import type { NoticeDoc } from "../domain/notice.entity.ts";
import type { NoticeOutcome, NoticesPort } from "../domain/ports/notices.port.ts";

export const NOTICES_COLLECTION = "notices";

/** Consumer notices (`_id` derived from the causing event and the channel). */
export class NoticeRepository implements NoticesPort {
  constructor(private readonly store: Store) {}

  private get notices() {
    return this.store.collection<NoticeDoc>(NOTICES_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The workers' poll: queued notices by due time.
    await this.notices.createIndex({ keys: { status: 1, dueAt: 1 }, name: "status_due" });
    // GET /api/merchants/notices, with and without checkout_id: newest first, then by id.
    await this.notices.createIndex({ keys: { merchantId: 1, createdAt: -1, _id: -1 }, name: "merchant_newest" });
    await this.notices.createIndex({ keys: { merchantId: 1, checkoutId: 1, createdAt: -1, _id: -1 }, name: "merchant_checkout_newest" });
  }

  insert(doc: NoticeDoc): Promise<boolean> {
    return insertIfAbsent(this.notices, doc);
  }

  due(now: string, limit: number): Promise<NoticeDoc[]> {
    return this.notices.find({ status: "queued", dueAt: { $lte: now } }, { sort: { dueAt: 1 }, limit });
  }

  claim(notice: NoticeDoc, leaseId: string, leaseUntil: string): Promise<NoticeDoc | null> {
    // The due time it was seen with: of workers racing for it, the first write moves it and wins.
    return this.notices.findOneAndUpdate({ _id: notice._id, status: "queued", dueAt: notice.dueAt }, { $set: { dueAt: leaseUntil, leaseId } });
  }

  async renew(noticeId: string, leaseId: string, until: string): Promise<boolean> {
    return (await this.notices.findOneAndUpdate({ _id: noticeId, leaseId, status: "queued" }, { $set: { dueAt: until } })) !== null;
  }

  finish(noticeId: string, leaseId: string, outcome: NoticeOutcome): Promise<NoticeDoc | null> {
    // Only the claim's holder, and only while queued: a notice is marked sent once.
    return this.notices.findOneAndUpdate({ _id: noticeId, leaseId, status: "queued" }, { $set: { ...outcome, leaseId: null } });
  }

  list(merchantId: string, checkoutId: string | undefined, limit: number, after?: Pick<NoticeDoc, "_id" | "createdAt">): Promise<NoticeDoc[]> {
    const filter: Filter = { merchantId };
    if (checkoutId !== undefined) filter["checkoutId"] = checkoutId;
    if (after) filter.$or = olderThan("createdAt", after);
    return this.notices.find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  find(noticeId: string): Promise<NoticeDoc | null> {
    return this.notices.findOne({ _id: noticeId });
  }
}
