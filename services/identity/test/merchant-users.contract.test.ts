import {
  acceptInvitationOp,
  changeMerchantUserRoleOp,
  createMerchantOp,
  inviteMerchantUserOp,
  listMerchantUsersOp,
  removeMerchantUserOp,
  resolveDashboardSessionOp,
  signInOp,
  signOutOp,
  type DashboardRole,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { anonymous, codeOf, errorOf, startIdentity, type TestClock, sessionOf } from "./support/identity-harness.ts";

const variants = await infraVariants();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };
const PASSWORD = "correct horse battery";
let emails = 0;
const freshEmail = () => `user${++emails}-${Date.now()}@shop.example`;

describe.each(variants)("dashboard users and sessions over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let clock: TestClock;
  let merchantId: string;

  /** A user of the merchant who accepted the invitation, and a principal as the gateway would build it. */
  async function member(role: DashboardRole, merchant = merchantId) {
    const email = freshEmail();
    const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchant, email, role }, admin);
    await client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous);
    const principal = { kind: "merchant" as const, merchantId: merchant, keyPrefix: "dashboard", livemode: false, userId: invited.user.id, role };
    return { email, id: invited.user.id, as: { requestId: "req_test", principal } };
  }

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, store, clock } = await startIdentity(variant));
    merchantId = (await client.call(createMerchantOp, { name: "Acme" }, admin)).merchant.id;
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("invites by a one-time token stored only as a hash, which sets an argon2id password once", async () => {
      const email = freshEmail();
      const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchantId, email: ` ${email.toUpperCase()} `, role: "admin" }, admin);
      expect(invited.user).toMatchObject({ email, role: "admin", status: "invited", merchant_id: merchantId });
      const stored = await uncheckedStore(store).collection("merchant_users").findOne({ _id: invited.user.id });
      expect(JSON.stringify(stored)).not.toContain(invited.invitation_token);
      expect(await codeOf(client.call(signInOp, { email, password: PASSWORD }, anonymous))).toBe("invalid_credentials");
      expect(await codeOf(client.call(acceptInvitationOp, { token: invited.invitation_token, password: "short" }, anonymous))).toBe("parameter_invalid");

      const accepted = await client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous);
      expect(accepted.status).toBe("active");
      const after = await uncheckedStore(store).collection<{ _id: string; passwordHash: string }>("merchant_users").findOne({ _id: invited.user.id });
      expect(after?.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await codeOf(client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous))).toBe("invitation_invalid");
      // Active: the same email cannot be invited again, by this merchant or another.
      expect(await codeOf(client.call(inviteMerchantUserOp, { merchant_id: merchantId, email, role: "viewer" }, admin))).toBe("merchant_user_exists");
    });

    it("lets an expired invitation go unused", async () => {
      const invited = await client.call(inviteMerchantUserOp, { merchant_id: merchantId, email: freshEmail(), role: "viewer" }, admin);
      clock.advance(8 * 24 * 3_600_000);
      expect(await codeOf(client.call(acceptInvitationOp, { token: invited.invitation_token, password: PASSWORD }, anonymous))).toBe("invitation_invalid");
    });

    it("opens a session that resolves to the user's merchant and role, and ends at sign-out", async () => {
      const user = await member("viewer");
      const session = await sessionOf(client.call(signInOp, { email: user.email, password: PASSWORD, client_address: "198.51.100.7" }, anonymous));
      const stored = await uncheckedStore(store).collection("dashboard_sessions").find({ userId: user.id });
      expect(JSON.stringify(stored)).not.toContain(session.session_token);
      const resolved = await client.call(resolveDashboardSessionOp, { session_token: session.session_token }, anonymous);
      expect(resolved.user).toMatchObject({ id: user.id, merchant_id: merchantId, role: "viewer" });
      await client.call(signOutOp, { session_token: session.session_token }, anonymous);
      expect(await codeOf(client.call(resolveDashboardSessionOp, { session_token: session.session_token }, anonymous))).toBe("session_invalid");
    });

    it("ends a user's sessions at once when the role changes or the user is removed", async () => {
      const owner = await member("owner");
      const user = await member("admin");
      const session = await sessionOf(client.call(signInOp, { email: user.email, password: PASSWORD }, anonymous));
      const changed = await client.call(changeMerchantUserRoleOp, { merchant_id: merchantId, user_id: user.id, role: "viewer" }, owner.as);
      expect(changed.role).toBe("viewer");
      expect(await codeOf(client.call(resolveDashboardSessionOp, { session_token: session.session_token }, anonymous))).toBe("session_invalid");
      const again = await sessionOf(client.call(signInOp, { email: user.email, password: PASSWORD }, anonymous));
      expect((await client.call(resolveDashboardSessionOp, { session_token: again.session_token }, anonymous)).user.role).toBe("viewer");
      expect(await client.call(removeMerchantUserOp, { merchant_id: merchantId, user_id: user.id }, owner.as)).toEqual({ id: user.id, removed: true });
      expect(await codeOf(client.call(resolveDashboardSessionOp, { session_token: again.session_token }, anonymous))).toBe("session_invalid");
      expect(await codeOf(client.call(signInOp, { email: user.email, password: PASSWORD }, anonymous))).toBe("invalid_credentials");
    });

    it("delays an account after 5 failures in 15 minutes, from any address and even with the right password, for a minute", async () => {
      const user = await member("viewer");
      const from = (client_address: string, password: string) => client.call(signInOp, { email: user.email, password, client_address }, anonymous);
      for (let i = 0; i < 4; i++) expect(await codeOf(from("203.0.113.9", "wrong password"))).toBe("invalid_credentials");
      const delayed = await errorOf(from("203.0.113.9", "wrong password"));
      expect(delayed.code).toBe("too_many_attempts");
      expect(delayed.retryAfter).toBe(60);
      expect(await codeOf(from("203.0.113.9", PASSWORD))).toBe("too_many_attempts");
      // The account's delay holds whatever the address (docs/decisions/0004-sign-in-limits.md).
      expect(await codeOf(from("203.0.113.10", PASSWORD))).toBe("too_many_attempts");
      clock.advance(60_000);
      expect(await codeOf(from("203.0.113.9", PASSWORD))).toBe("resolved");
    });

    it("keeps viewers, api-keys and other merchants out of the team, and keeps one owner", async () => {
      const owner = await member("owner");
      const admin2 = await member("admin");
      const viewer = await member("viewer");
      const other = (await client.call(createMerchantOp, { name: "Globex" }, admin)).merchant.id;
      const outsider = await member("owner", other);
      const apiKey = { requestId: "req_test", principal: { kind: "merchant" as const, merchantId, keyPrefix: "sk_test_x", livemode: false } };
      const invite = { merchant_id: merchantId, email: freshEmail(), role: "viewer" as const };
      expect(await codeOf(client.call(inviteMerchantUserOp, invite, viewer.as))).toBe("permission_denied");
      expect(await codeOf(client.call(inviteMerchantUserOp, invite, apiKey))).toBe("permission_denied");
      expect(await codeOf(client.call(inviteMerchantUserOp, invite, outsider.as))).toBe("permission_denied");
      expect(await codeOf(client.call(inviteMerchantUserOp, { ...invite, role: "owner" }, admin2.as))).toBe("permission_denied");
      expect(await codeOf(client.call(changeMerchantUserRoleOp, { merchant_id: merchantId, user_id: owner.id, role: "viewer" }, admin2.as))).toBe("permission_denied");
      expect(await codeOf(client.call(removeMerchantUserOp, { merchant_id: merchantId, user_id: admin2.id }, viewer.as))).toBe("permission_denied");
      // Another merchant's user is as absent as an unknown one.
      expect(await codeOf(client.call(removeMerchantUserOp, { merchant_id: other, user_id: viewer.id }, outsider.as))).toBe("merchant_user_not_found");
      expect(await codeOf(client.call(listMerchantUsersOp, { merchant_id: merchantId }, outsider.as))).toBe("permission_denied");
      const listed = await client.call(listMerchantUsersOp, { merchant_id: merchantId }, viewer.as);
      expect(listed.data.map((u) => u.id)).toEqual(expect.arrayContaining([owner.id, admin2.id, viewer.id]));
      expect(listed.data.every((u) => u.merchant_id === merchantId)).toBe(true);
      // The outsider is their merchant's only owner.
      expect(await codeOf(client.call(changeMerchantUserRoleOp, { merchant_id: other, user_id: outsider.id, role: "admin" }, outsider.as))).toBe("last_owner");
    });

    /** The merchant's active owners as stored, and the team's own count of them. */
    async function ownersOf(merchant: string) {
      const users = await uncheckedStore(store).collection<{ _id: string; role: string; status: string; outboxRemove?: boolean }>("merchant_users").find({ merchantId: merchant });
      const team = await uncheckedStore(store).collection<{ _id: string; owners: number }>("merchant_teams").findOne({ _id: merchant });
      // A removed user whose audit entry is still on its way is a tombstone, no longer a user.
      return { active: users.filter((u) => u.role === "owner" && u.status === "active" && !u.outboxRemove).map((u) => u._id), counted: team?.owners };
    }

    it("keeps one owner when 20 demotions among 3 owners race, each loser answered 409 last_owner", async () => {
      const merchant = (await client.call(createMerchantOp, { name: "Race demote" }, admin)).merchant.id;
      const owners = [await member("owner", merchant), await member("owner", merchant), await member("owner", merchant)];
      const calls = Array.from({ length: 20 }, (_, i) => {
        const actor = owners[i % 3]!;
        const target = owners[(i + 1) % 3]!;
        const role = i % 2 ? "admin" : "viewer";
        return codeOf(client.call(changeMerchantUserRoleOp, { merchant_id: merchant, user_id: target.id, role }, actor.as));
      });
      const codes = await Promise.all(calls);
      expect(new Set(codes)).toEqual(new Set(["resolved", "last_owner"]));
      // At least one owner stays (two of the calls on one owner may both take a place while
      // the first write is in flight, so a refusal can leave two), and the count is the truth.
      const after = await ownersOf(merchant);
      expect(after.active.length).toBeGreaterThanOrEqual(1);
      expect(after.counted).toBe(after.active.length);
    });

    it("keeps one owner when 2 owners remove each other 10 times at once", async () => {
      const merchant = (await client.call(createMerchantOp, { name: "Race remove" }, admin)).merchant.id;
      const [a, b] = [await member("owner", merchant), await member("owner", merchant)];
      const calls = Array.from({ length: 20 }, (_, i) => {
        const [actor, target] = i % 2 ? [a, b] : [b, a];
        return codeOf(client.call(removeMerchantUserOp, { merchant_id: merchant, user_id: target.id }, actor.as)).then((code) => ({ target: target.id, code }));
      });
      const results = await Promise.all(calls);
      const removed = results.filter((r) => r.code === "resolved").map((r) => r.target);
      expect(removed).toHaveLength(1);
      const after = await ownersOf(merchant);
      expect(after.active).toEqual([a.id, b.id].filter((id) => id !== removed[0]));
      expect(after.counted).toBe(1);
      // Removing the survivor is refused as the last owner; removing the removed one finds no one,
      // or, when it read them before they went, is refused as the last owner too.
      for (const r of results.filter((r) => r.code !== "resolved")) {
        expect(r.target === removed[0] ? ["merchant_user_not_found", "last_owner"] : ["last_owner"]).toContain(r.code);
      }
      expect(results.some((r) => r.code === "last_owner")).toBe(true);
    });

    it("counts an owner again after a promotion, so the former last owner may then step down", async () => {
      const merchant = (await client.call(createMerchantOp, { name: "Promote" }, admin)).merchant.id;
      const owner = await member("owner", merchant);
      const next = await member("admin", merchant);
      expect(await codeOf(client.call(changeMerchantUserRoleOp, { merchant_id: merchant, user_id: owner.id, role: "admin" }, owner.as))).toBe("last_owner");
      await client.call(changeMerchantUserRoleOp, { merchant_id: merchant, user_id: next.id, role: "owner" }, owner.as);
      expect((await client.call(changeMerchantUserRoleOp, { merchant_id: merchant, user_id: owner.id, role: "admin" }, owner.as)).role).toBe("admin");
      expect(await ownersOf(merchant)).toEqual({ active: [next.id], counted: 1 });
    });
  });
});
