import type { RpcReplyEnvelope } from "@payrail/contracts";
import type { LedgerHolder, ReplyLedger } from "../../src/index.ts";

interface Entry {
  state: "running" | "done";
  callId: string;
  fingerprint: string;
  runId: string;
  leaseUntil: number;
  expiresAt: number;
  reply?: RpcReplyEnvelope;
}

/** A ReplyLedger in one process's memory, with the store-backed one's rules (libs/store tests that one). */
export function memoryLedger(): ReplyLedger {
  const entries = new Map<string, Entry>();
  return {
    async claim(key, fingerprint, callId, leaseUntil, expiresAt): Promise<LedgerHolder | null> {
      const now = Date.now();
      const held = entries.get(key);
      const orphan = held?.state === "running" && held.fingerprint === fingerprint && held.leaseUntil < now;
      if (orphan) {
        Object.assign(held, { callId, leaseUntil });
        return { state: "resumed", runId: held.runId };
      }
      if (!held || held.expiresAt < now) {
        entries.set(key, { state: "running", callId, runId: callId, fingerprint, leaseUntil, expiresAt });
        return null;
      }
      if (held.state === "running") return { state: "running", callId: held.callId, fingerprint: held.fingerprint };
      return { state: "done", callId: held.callId, fingerprint: held.fingerprint, reply: held.reply! };
    },
    async renew(key, callId, leaseUntil) {
      const held = entries.get(key);
      if (held?.state !== "running" || held.callId !== callId) return false;
      held.leaseUntil = leaseUntil;
      return true;
    },
    async finish(key, callId, _fingerprint, reply) {
      const held = entries.get(key);
      if (held?.state === "running") Object.assign(held, { state: "done", callId, reply });
    },
    async release(key, callId) {
      const held = entries.get(key);
      if (held?.state === "running" && held.callId === callId) entries.delete(key);
    },
  };
}
