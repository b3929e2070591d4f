import { DuplicateKeyError, type Store } from "../store.port.ts";

/** The collection where serving processes remember requests they ran at most once. */
export const REPLY_LEDGER_COLLECTION = "rpc_replies";
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 100;
const DONE = "|done";

interface LedgerRecord {
  /** `call:<callId>` or `key:<owner>:<Idempotency-Key>` for the claim; the same + `|done` for the reply. */
  _id: string;
  /** The call that holds the claim (or stored the reply). */
  callId: string;
  /** Hash of the request: the same key with another request is refused, not replayed. */
  fingerprint: string;
  /** Epoch ms after which the record counts as absent (and a sweep deletes it). */
  expiresAt: number;
  /** Claim: epoch ms until which the running call holds the key; renewed while it runs. */
  leaseUntil?: number;
  /** Reply: as JSON text (FerretDB cannot store every nested shape a reply may have). */
  replyJson?: string;
}

export type LedgerHolder<Reply> =
  | { state: "running"; callId: string; fingerprint: string }
  | { state: "done"; callId: string; fingerprint: string; reply: Reply };

/**
 * libs/messaging's `ReplyLedger` over a Store (structurally: libs/store imports no messaging
 * types). A call's claim and its reply are two documents, each written by one insert, so the
 * common path (claim, run, reply) costs two inserts and no conditional update: inserts against
 * a unique `_id` are atomic everywhere, including on FerretDB, where a conditional update takes
 * a lock document and four round trips. A repeat reads the reply, then the claim (two reads);
 * only taking over a claim (expired, or its runner's lease ran out) and renewing a lease update.
 * The store has no TTL index: a record past `expiresAt` counts as absent, and a sweep (at most
 * once a minute, a batch at a time, on the `expiresAt` index) deletes old ones.
 */
export async function createReplyLedger<Reply>(store: Store) {
  const records = store.collection<LedgerRecord>(REPLY_LEDGER_COLLECTION);
  await records.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  let lastSweep = Date.now();

  const sweep = async (now: number) => {
    lastSweep = now;
    const old = await records.find({ expiresAt: { $lt: now } }, { sort: { expiresAt: 1 }, limit: SWEEP_BATCH });
    for (const record of old) await records.deleteOne({ _id: record._id, expiresAt: { $lt: now } });
  };

  return {
    async claim(key: string, fingerprint: string, callId: string, leaseUntil: number, expiresAt: number): Promise<LedgerHolder<Reply> | null> {
      const now = Date.now();
      if (now - lastSweep > SWEEP_EVERY_MS) void sweep(now).catch(() => undefined);
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await records.insertOne({ _id: key, callId, fingerprint, leaseUntil, expiresAt });
          return null;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
        }
        const done = await records.findOne({ _id: key + DONE });
        if (done && done.expiresAt >= now) {
          return { state: "done", callId: done.callId, fingerprint: done.fingerprint, reply: JSON.parse(done.replyJson ?? "null") as Reply };
        }
        if (done) await records.deleteOne({ _id: done._id, expiresAt: { $lt: now } });
        const held = await records.findOne({ _id: key });
        if (!held) continue; // released between our insert and this read: try again
        // A claim past its time counts as absent, and the same request's claim whose runner
        // stopped renewing its lease (it died) is taken over: both in place, by one conditional
        // write, tried only when the read says so (repeats poll this while a call runs).
        const expired = held.expiresAt < now;
        const orphaned = held.fingerprint === fingerprint && (held.leaseUntil ?? 0) < now;
        if (!expired && !orphaned) return { state: "running", callId: held.callId, fingerprint: held.fingerprint };
        const filter = expired ? { _id: key, expiresAt: { $lt: now } } : { _id: key, fingerprint, leaseUntil: { $lt: now } };
        if (await records.findOneAndUpdate(filter, { $set: { callId, fingerprint, leaseUntil, expiresAt } })) return null;
      }
      throw new Error(`reply ledger: key kept changing hands (${REPLY_LEDGER_COLLECTION})`);
    },

    async renew(key: string, callId: string, leaseUntil: number): Promise<void> {
      await records.findOneAndUpdate({ _id: key, callId }, { $set: { leaseUntil } });
    },

    async finish(key: string, callId: string, fingerprint: string, reply: Reply, expiresAt: number): Promise<void> {
      try {
        await records.insertOne({ _id: key + DONE, callId, fingerprint, expiresAt, replyJson: JSON.stringify(reply) });
      } catch (err) {
        // Another run of the same request stored its reply first: that one stands.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    },

    async release(key: string, callId: string): Promise<void> {
      await records.deleteOne({ _id: key, callId });
    },
  };
}
