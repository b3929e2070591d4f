import type { Collection, Filter, Store } from "@payrail/store";

/** One way in which the services' records disagree with each other (`payrail check`). */
export interface Divergence {
  /** What kind of disagreement, e.g. `checkout_not_following_transaction`. */
  kind: string;
  /** The record it is about (a checkout, transaction, refund, event or document id). */
  id: string;
  detail: string;
  /**
   * Not a disagreement between records but money the merchant must act on (a refund paid back
   * on a payment the bank also returned): listed, and not counted in the exit status, since no
   * repair of Payrail's records makes it go away.
   */
  attention?: true;
}

/** What a check reads with, and what it leaves alone: changes younger than `graceMs` may still be on their way. */
export interface CheckContext {
  store: Store;
  now: Date;
  graceMs: number;
  /** ISO time before which a change should have reached every service. */
  settledBefore: string;
}

const PAGE = 500;

/**
 * Every document of a collection, in `_id` order, a page at a time (the `_id` index serves
 * each page): a check reads the whole history, never a collection at once.
 */
export async function* everyDocument<T extends { _id: string }>(collection: Collection<T>, filter: Filter = {}): AsyncGenerator<T> {
  let after: string | null = null;
  for (;;) {
    const page: T[] = await collection.find(after === null ? filter : { ...filter, _id: { $gt: after } }, { sort: { _id: 1 }, limit: PAGE });
    for (const doc of page) yield doc;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!._id;
  }
}
