import { getVerificationCodeOp, logoutOp, resolveAuthTokenOp, sendCodeOp, verifyCodeOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { sha256Hex } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { UserRepository } from "../src/data-access/user.repository.ts";
import { aMerchant, anonymous, codeOf, freshPhone, lastCode, startIdentity, type TestClock } from "./support/identity-harness.ts";

const variants = await infraVariants();
const HOUR = 60 * 60 * 1000;

describe.each(variants)("users and auth tokens over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let clock: TestClock;

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, store, clock } = await startIdentity(variant));
  });
  afterAll(() => variant.cleanup());

  /** Verifies a fresh phone (or the given one) and returns its token and user. */
  async function signIn(phone = freshPhone()): Promise<{ token: string; userId: string; phone: string }> {
    clock.advance(30_000); // clear of the resend interval of earlier sign-ins
    await client.call(sendCodeOp, { phone }, anonymous);
    const out = await client.call(verifyCodeOp, { phone, verification_code: await lastCode(client, phone) }, anonymous);
    return { token: out.data.auth_token, userId: out.data.user_id, phone };
  }
  const resolve = (auth_token: string) => client.call(resolveAuthTokenOp, { auth_token }, anonymous);
  const asUser = (userId: string, phone: string, tokenId?: string) => ({
    requestId: "req_test",
    principal: { kind: "user" as const, userId, phone, ...(tokenId ? { tokenId } : {}) },
  });

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("accepts a token for 24 hours and not a moment longer", async () => {
      const issuedAt = clock.t + 30_000;
      const { token, userId, phone } = await signIn();
      clock.t = issuedAt + 24 * HOUR - 1;
      await expect(resolve(token)).resolves.toMatchObject({ user_id: userId, phone });
      clock.t = issuedAt + 24 * HOUR;
      expect(await codeOf(resolve(token))).toBe("auth_token_invalid");
    });

    it("revokes the presented token at logout, idempotently, and only that token", async () => {
      const first = await signIn();
      const second = await signIn(first.phone);
      const who = await resolve(first.token);
      const ctx = asUser(who.user_id, who.phone, who.token_id);
      expect(await client.call(logoutOp, {}, ctx)).toEqual({ message: "Logged out" });
      expect(await codeOf(resolve(first.token))).toBe("auth_token_invalid");
      expect(await client.call(logoutOp, {}, ctx)).toEqual({ message: "Logged out" });
      await expect(resolve(second.token)).resolves.toMatchObject({ user_id: first.userId });
    });

    it("lets nobody but the token's user revoke it", async () => {
      const victim = await signIn();
      const other = await signIn();
      const { token_id } = await resolve(victim.token);
      // Another user naming the victim's token id revokes nothing.
      await client.call(logoutOp, {}, asUser(other.userId, other.phone, token_id));
      await expect(resolve(victim.token)).resolves.toBeTruthy();
      expect(await codeOf(client.call(logoutOp, {}, aMerchant))).toBe("permission_denied");
      expect(await codeOf(client.call(logoutOp, {}, anonymous))).toBe("permission_denied");
      expect(await codeOf(client.call(logoutOp, {}, asUser(other.userId, other.phone)))).toBe("auth_token_invalid");
    });

    it("rejects malformed and unknown tokens alike", async () => {
      const { token } = await signIn();
      for (const t of ["x", "a".repeat(43), `${token}x`, token.slice(1), `${token.slice(0, 42)}!`, " ".repeat(43)]) {
        expect(await codeOf(resolve(t)), t).toBe("auth_token_invalid");
      }
    });

    it("stores tokens only as their SHA-256", async () => {
      const { token, userId } = await signIn();
      const docs = await store.collection<{ _id: string; tokenId: string }>("auth_tokens").find({ userId });
      expect(docs).toHaveLength(1);
      expect(JSON.stringify(docs)).not.toContain(token);
      expect(docs[0]!._id).toBe(sha256Hex(token));
      expect((await resolve(token)).token_id).toBe(docs[0]!.tokenId);
      expect(docs[0]!.tokenId).not.toBe(docs[0]!._id);
    });

    it("creates one user when 20 first verifications of a phone race", async () => {
      const users = new UserRepository(store);
      const phone = freshPhone();
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, i) => users.findOrCreate({ _id: String(i).padStart(32, "0"), phone, createdAt: new Date().toISOString() })),
      );
      expect(new Set(made.map((u) => u._id)).size).toBe(1);
      expect(await store.collection("users").countDocuments({ phone })).toBe(1);
    });

    it("reads codes back for merchants only, and only codes that were sent", async () => {
      const phone = freshPhone();
      expect(await codeOf(client.call(getVerificationCodeOp, { phone }, aMerchant))).toBe("resource_missing");
      await client.call(sendCodeOp, { phone }, anonymous);
      expect(await codeOf(client.call(getVerificationCodeOp, { phone }, anonymous))).toBe("permission_denied");
      const { userId } = await signIn();
      expect(await codeOf(client.call(getVerificationCodeOp, { phone }, asUser(userId, phone)))).toBe("permission_denied");
      expect(await codeOf(client.call(getVerificationCodeOp, { phone: "not a phone" }, aMerchant))).toBe("invalid_phone_number");
    });
  });
});
