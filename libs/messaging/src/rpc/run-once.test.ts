import { ANONYMOUS, type RpcReplyEnvelope } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import type { LedgerHolder, ReplyLedger } from "./reply-ledger.port.ts";
import { runOnce } from "./run-once.ts";

const REPLY: RpcReplyEnvelope = { ok: true, data: { id: "x" } };

/** A ledger whose key another run of the same call holds until `doneAfterClaims` claims have been made, then answers its reply. */
function ledgerHeldFor(doneAfterClaims: number): ReplyLedger & { claims: number } {
  const ledger = {
    claims: 0,
    async claim(_key: string, fingerprint: string, callId: string): Promise<LedgerHolder | null> {
      ledger.claims += 1;
      if (ledger.claims < doneAfterClaims) return { state: "running", callId, fingerprint };
      return { state: "done", callId, fingerprint, reply: REPLY };
    },
    renew: async () => true,
    finish: async () => undefined,
    release: async () => undefined,
  };
  return ledger;
}

describe("runOnce, a repeat of a call that runs elsewhere", () => {
  it("waits for the running call's reply and answers it without running the call again", async () => {
    const ledger = ledgerHeldFor(3);
    let ran = false;
    const reply = await runOnce(ledger, { pattern: "payments.x", principal: ANONYMOUS, payload: {}, callId: "c1", deadline: Date.now() + 10_000 }, silentLogger(), async () => {
      ran = true;
      return REPLY;
    });
    expect(reply).toEqual(REPLY);
    expect(ran).toBe(false);
  });

  it("answers nothing once the caller's deadline passed while waiting", async () => {
    const ledger = ledgerHeldFor(Number.POSITIVE_INFINITY);
    const reply = await runOnce(ledger, { pattern: "payments.x", principal: ANONYMOUS, payload: {}, callId: "c1", deadline: Date.now() + 700 }, silentLogger(), async () => REPLY);
    expect(reply).toBeNull();
    // Reads at 0, 0.1 and 0.3 s, then once the 0.4 s wait (cut to the deadline) has passed it: four
    // at most, fewer on a slow machine. Read every 100 ms, as before, it was eight: 50 repeats of a
    // killed process's calls then read the store 1,500 times a second while waiting out its lease.
    expect(ledger.claims).toBeLessThanOrEqual(4);
  });
});
