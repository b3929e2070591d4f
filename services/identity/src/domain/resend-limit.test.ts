import { describe, expect, it } from "vitest";
import { decideResend } from "./resend-limit.ts";

const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe("decideResend", () => {
  it("allows a phone's first send and records it", () => {
    expect(decideResend(null, T0)).toEqual({ allowed: true, sentAt: [at(0)] });
  });

  it("makes the next send wait 30 seconds after the last", () => {
    const history = { lastSentAt: at(0), sentAt: [at(0)] };
    expect(decideResend(history, T0 + 10_000)).toEqual({ allowed: false, retryAfterMs: 20_000 });
    expect(decideResend(history, T0 + 30_000)).toEqual({ allowed: true, sentAt: [at(0), at(30_000)] });
  });

  it("allows five sends in a sliding hour and says when the sixth fits", () => {
    const sends = [0, 600_000, 1_200_000, 1_800_000, 2_400_000].map(at);
    const history = { lastSentAt: sends[4]!, sentAt: sends };
    expect(decideResend(history, T0 + 3_000_000)).toEqual({ allowed: false, retryAfterMs: 600_000 });
    const allowed = decideResend(history, T0 + 3_600_000);
    // The first send left the window; the history keeps only what can still matter.
    expect(allowed).toEqual({ allowed: true, sentAt: [...sends.slice(1), at(3_600_000)] });
  });

  it("allows a send after a withdrawn one at once, while the hour still counts it", () => {
    const history = { lastSentAt: null, sentAt: [at(0)] };
    expect(decideResend(history, T0 + 1)).toEqual({ allowed: true, sentAt: [at(0), at(1)] });
  });
});
