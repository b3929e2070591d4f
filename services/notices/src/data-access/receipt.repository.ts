import { olderThan, type Filter, type Store } from "@payrail/store";
import type { NoticeDoc } from "../domain/notice.entity.ts";
import type { ReceiptsPort } from "../domain/ports/receipts.port.ts";
import { NOTICES_COLLECTION } from "./notice.repository.ts";

/** The consumer portal's view of the notices collection: a consumer's receipts, newest first. */
export class ReceiptRepository implements ReceiptsPort {
  constructor(private readonly store: Store) {}

  private get notices() {
    return this.store.collection<NoticeDoc>(NOTICES_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    // The portal's receipts: one consumer's notices of a type, the copy it shows of each cause, newest first.
    await this.notices.createIndex({ keys: { userId: 1, type: 1, portalCopy: 1, createdAt: -1, _id: -1 }, name: "consumer_type_newest" });
  }

  listForConsumer(userId: string, merchantId: string | undefined, limit: number, after?: Pick<NoticeDoc, "_id" | "createdAt">): Promise<NoticeDoc[]> {
    const filter: Filter = { userId, type: "payment_receipt", portalCopy: true };
    // A sandbox token reaches one merchant: a filter on the index's range, since one consumer's receipts are few.
    if (merchantId !== undefined) filter["merchantId"] = merchantId;
    if (after) filter.$or = olderThan("createdAt", after);
    return this.notices.find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
  }
}
