import { DuplicateKeyError, type IndexSpec, type Store } from "../store.port.ts";
import { createRetentionSweep } from "../shared/retention-sweep.ts";

/** The collection where serving processes remember requests they ran at most once. */
export const REPLY_LEDGER_COLLECTION = "rpc_replies";
/** The sweep's index: expired records oldest first. */
export const REPLY_LEDGER_INDEX: IndexSpec = { keys: { expiresAt: 1 }, name: "expires" };
const DONE = "|done";

interface LedgerRecord {
  /** `call:<callId>` or `key:<owner>:<Idempotency-Key>` for the claim; the same + `|done` for the reply. */
  _id: string;
  /** The call that holds the claim (or stored the reply). */
  callId: string;
  /** Claim: the run whose effects a taken-over claim continues (the first claimer's call id). */
  runId?: string;
  /** Hash of the request: the same key with another request is refused, not replayed. */
  fingerprint: string;
  /** Epoch ms after which the record counts as absent (and a sweep deletes it). */
  expiresAt: number;
  /** Claim: epoch ms until which the running call holds the key; renewed while it runs. */
  leaseUntil?: number;
  /** Reply: JSON text sealed with SECRETS_KEY, bound to the record's `_id` (replies carry keys, tokens, secrets). */
  replySealed?: string;
  /** Reply in clear, as records written before sealing hold it (gone within their 24 h). */
  replyJson?: string;
}

export type LedgerHolder<Reply> =
  | { state: "running"; callId: string; fingerprint: string }
  | { state: "done"; callId: string; fingerprint: string; reply: Reply }
  | { state: "resumed"; runId: string };

/** Encrypts stored replies: @payrail/runtime's SecretBox, given by the composition root with SECRETS_KEY. */
export interface ReplySealer {
  seal(plaintext: string, context: string): string;
  /** Throws when the sealed text does not open (another key, another record, tampered). */
  open(sealed: string, context: string): string;
}

export interface ReplyLedgerOptions {
  sealer: ReplySealer;
  /** The clock that decides what has expired (tests move it). */
  now?: () => number;
  /** How often at most a sweep starts (behind a claim). Default a minute. */
  sweepEveryMs?: number;
  /** Records deleted per pass of a sweep; a sweep runs passes until one finds fewer. */
  sweepBatch?: number;
}

/**
 * libs/messaging's `ReplyLedger` over a Store (structurally: libs/store imports no messaging
 * types). A call's claim and its reply are two documents, each written by one insert, so the
 * common path (claim, run, reply) costs two inserts and no conditional update: inserts against
 * a unique `_id` are atomic everywhere, including on FerretDB, where a conditional update takes
 * a lock document and four round trips. A repeat reads the reply, then the claim (two reads);
 * only taking over a claim whose runner's lease ran out and renewing a lease update. A record
 * past `expiresAt` counts as absent and is deleted, never revived in place, so the sweep (on the
 * `expiresAt` index, behind claims, at most once a minute, until it has caught up) may delete
 * expired records in bulk without racing a writer. Replies are stored sealed: they hold API
 * keys, auth tokens and webhook signing secrets, which the rest of the store keeps only hashed
 * or sealed.
 */
export async function createReplyLedger<Reply>(store: Store, options: ReplyLedgerOptions) {
  const { sealer, now = Date.now } = options;
  const records = store.collection<LedgerRecord>(REPLY_LEDGER_COLLECTION);
  await records.createIndex(REPLY_LEDGER_INDEX);
  const sweep = createRetentionSweep({
    collection: records,
    field: "expiresAt",
    before: now,
    batch: options.sweepBatch ?? 50_000,
    everyMs: options.sweepEveryMs ?? 60_000,
    now,
  });

  return {
    /** Runs a sweep now, until caught up; resolves how many records it deleted (tests, tools). */
    sweep: () => sweep.run(),

    async claim(key: string, fingerprint: string, callId: string, leaseUntil: number, expiresAt: number): Promise<LedgerHolder<Reply> | null> {
      sweep.due();
      for (let attempt = 0; attempt < 4; attempt++) {
        const at = now();
        try {
          await records.insertOne({ _id: key, callId, runId: callId, fingerprint, leaseUntil, expiresAt });
          return null;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
        }
        const done = await records.findOne({ _id: key + DONE });
        if (done && done.expiresAt >= at) {
          const text = done.replySealed === undefined ? (done.replyJson ?? "null") : sealer.open(done.replySealed, done._id);
          const reply = JSON.parse(text) as Reply;
          return { state: "done", callId: done.callId, fingerprint: done.fingerprint, reply };
        }
        if (done) await records.deleteOne({ _id: done._id, expiresAt: { $lt: at } });
        const held = await records.findOne({ _id: key });
        if (!held) continue; // released between our insert and this read: try again
        if (held.expiresAt < at) {
          // Forgotten: deleted (not taken over in place), then claimed afresh by the insert above.
          await records.deleteOne({ _id: key, expiresAt: { $lt: at } });
          continue;
        }
        // The same request's claim whose runner stopped renewing its lease (it died, or its event
        // loop stalled) is taken over by one conditional write, tried only when the read says so
        // (repeats poll this while a call runs). The run keeps its id: effects keyed on it are
        // found again instead of made twice, if the first runner was only slow.
        const orphaned = held.fingerprint === fingerprint && (held.leaseUntil ?? 0) < at;
        if (!orphaned) return { state: "running", callId: held.callId, fingerprint: held.fingerprint };
        const taken = await records.findOneAndUpdate({ _id: key, fingerprint, leaseUntil: { $lt: at } }, { $set: { callId, leaseUntil } });
        if (taken) return { state: "resumed", runId: taken.runId ?? held.callId };
      }
      throw new Error(`reply ledger: key kept changing hands (${REPLY_LEDGER_COLLECTION})`);
    },

    async renew(key: string, callId: string, leaseUntil: number): Promise<boolean> {
      return (await records.findOneAndUpdate({ _id: key, callId }, { $set: { leaseUntil } })) !== null;
    },

    async finish(key: string, callId: string, fingerprint: string, reply: Reply, expiresAt: number): Promise<void> {
      const _id = key + DONE;
      try {
        await records.insertOne({ _id, callId, fingerprint, expiresAt, replySealed: sealer.seal(JSON.stringify(reply), _id) });
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
