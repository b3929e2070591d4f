import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "./unsubscribe-token.ts";

const key = randomBytes(32);
const who = { merchantId: `mer_${"a1".repeat(16)}`, userId: "b2".repeat(16), channel: "email" as const };

describe("unsubscribe tokens", () => {
  it("names the merchant, the consumer and the channel it was signed for, in one path segment", () => {
    const token = signUnsubscribeToken(key, who);
    expect(token.length).toBeLessThanOrEqual(100);
    expect(token).toMatch(/^[\w.-]+$/);
    expect(verifyUnsubscribeToken(key, token)).toEqual(who);
    const odd = { merchantId: "merchant-7", userId: "user@example", channel: "sms" as const };
    expect(verifyUnsubscribeToken(key, signUnsubscribeToken(key, odd))).toEqual(odd);
  });

  it("refuses a token signed with another key, a changed payload or MAC, and a malformed one", () => {
    const token = signUnsubscribeToken(key, who);
    const [version, payload, mac] = token.split(".") as [string, string, string];
    const other = signUnsubscribeToken(key, { ...who, merchantId: `mer_${"c3".repeat(16)}` }).split(".")[1]!;
    expect(verifyUnsubscribeToken(randomBytes(32), token)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${version}.${other}.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${version}.${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`)).toBeNull();
    for (const bad of ["", "u1", "u1..", `u2.${payload}.${mac}`, `${token}.x`]) expect(verifyUnsubscribeToken(key, bad)).toBeNull();
  });
});
