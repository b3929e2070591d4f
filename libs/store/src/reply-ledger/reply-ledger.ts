import { DuplicateKeyError, type Store } from "../store.port.ts";

/** The collection where serving processes remember requests they ran at most once. */
export const REPLY_LEDGER_COLLECTION = "rpc_replies";
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 100;

interface LedgerRecord {
  /** `call:<callId>` or `key:<owner>:<Idempotency-Key>`. */
  _id: string;
  state: "running" | "done";
  /** The call that holds (or finished) the key. */
  callId: string;
  /** Hash of the request: the same key with another request is refused, not replayed. */
  fingerprint: string;
  /** Epoch ms until which a running call holds the key; renewed while it runs. */
  leaseUntil: number;
  /** Epoch ms after which the record counts as absent (and a sweep deletes it). */
  expiresAt: number;
  /** The reply, as JSON text (FerretDB cannot store every nested shape a reply may have). */
  replyJson?: string;
}

export type LedgerHolder<Reply> =
  | { state: "running"; callId: string; fingerprint: string }
  | { state: "done"; callId: string; fingerprint: string; reply: Reply };

/**
 * libs/messaging's `ReplyLedger` over a Store (structurally: libs/store imports no messaging
 * types). Each operation is one insert, one conditional write by `_id`, or one read by `_id`;
 * the store has no TTL index, so a record past `expiresAt` counts as absent, is claimed over in
 * place, and a sweep (at most once a minute, a batch at a time, on the `expiresAt` index)
 * deletes the rest.
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
          await records.insertOne({ _id: key, state: "running", callId, fingerprint, leaseUntil, expiresAt });
          return null;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
        }
        // A record past its time counts as absent: claimed over in place.
        const fresh = { state: "running", callId, fingerprint, leaseUntil, expiresAt };
        if (await records.findOneAndUpdate({ _id: key, expiresAt: { $lt: now } }, { $set: fresh, $unset: { replyJson: "" } })) return null;
        // The same request, left running by a caller whose lease ran out (it died): taken over.
        const orphan = { _id: key, state: "running", fingerprint, leaseUntil: { $lt: now } };
        if (await records.findOneAndUpdate(orphan, { $set: { callId, leaseUntil, expiresAt } })) return null;
        const held = await records.findOne({ _id: key });
        if (!held) continue; // released between our insert and this read: try again
        if (held.state === "running") return { state: "running", callId: held.callId, fingerprint: held.fingerprint };
        return { state: "done", callId: held.callId, fingerprint: held.fingerprint, reply: JSON.parse(held.replyJson ?? "null") as Reply };
      }
      throw new Error(`reply ledger: key kept changing hands (${REPLY_LEDGER_COLLECTION})`);
    },

    async renew(key: string, callId: string, leaseUntil: number): Promise<void> {
      await records.findOneAndUpdate({ _id: key, callId, state: "running" }, { $set: { leaseUntil } });
    },

    async finish(key: string, callId: string, reply: Reply): Promise<void> {
      await records.findOneAndUpdate({ _id: key, callId, state: "running" }, { $set: { state: "done", replyJson: JSON.stringify(reply) } });
    },

    async release(key: string, callId: string): Promise<void> {
      await records.deleteOne({ _id: key, callId, state: "running" });
    },
  };
}
