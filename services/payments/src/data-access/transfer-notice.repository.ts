import { insertIfAbsent, type Store } from "@payrail/store";
import type { KeptNotice, TransferNoticesPort } from "../domain/transfers/ports/transfer-notices.port.ts";

export const TRANSFER_NOTICES_COLLECTION = "transfer_notices";

type NoticeDoc = { _id: string; transferId: string; receivedAt: string };

/** Notices for transfers with no record yet (`_id` = the provider's event id). */
export class TransferNoticeRepository implements TransferNoticesPort {
  constructor(private readonly store: Store) {}

  private get notices() {
    return this.store.collection<NoticeDoc>(TRANSFER_NOTICES_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.notices.createIndex({ keys: { transferId: 1, receivedAt: 1 }, name: "transfer" });
  }

  async keep(notice: KeptNotice): Promise<void> {
    await insertIfAbsent(this.notices, { _id: notice.eventId, transferId: notice.transferId, receivedAt: notice.receivedAt });
  }

  async forTransfer(transferId: string): Promise<KeptNotice[]> {
    const docs = await this.notices.find({ transferId }, { sort: { transferId: 1, receivedAt: 1 }, limit: 100 });
    return docs.map(toNotice);
  }

  async applied(eventId: string): Promise<void> {
    await this.notices.deleteOne({ _id: eventId });
  }
}

function toNotice(doc: NoticeDoc): KeptNotice {
  return { eventId: doc._id, transferId: doc.transferId, receivedAt: doc.receivedAt };
}
