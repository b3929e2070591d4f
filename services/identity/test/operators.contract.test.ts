import { addOperatorOp, createMerchantOp, isOperatorOp, listOperatorsOp, removeOperatorOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { aMerchant, codeOf, freshPhone, startIdentity } from "./support/identity-harness.ts";

const variants = await infraVariants();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };
const service = { requestId: "req_test", principal: { kind: "service" as const, service: "refunds" } };

describe.each(variants)("merchant operators over $name", (variant) => {
  let client: Transport;
  let store: Store;
  let merchantId: string;
  let otherId: string;

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client, store } = await startIdentity(variant));
    merchantId = (await client.call(createMerchantOp, { name: "Acme" }, admin)).merchant.id;
    otherId = (await client.call(createMerchantOp, { name: "Globex" }, admin)).merchant.id;
  });
  afterAll(() => variant.cleanup());

  const isOperator = (merchant: string, phone: string) => client.call(isOperatorOp, { merchant_id: merchant, phone }, service);

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("registers a phone in E.164, once however often and in whatever form it is added", async () => {
      const phone = freshPhone();
      const written = `${phone.slice(0, 2)} (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => client.call(addOperatorOp, { merchant_id: merchantId, phone: i % 2 ? phone : written }, admin)));
      // Named by an opaque id, the same each time (never the phone): what the audit log shows.
      for (const r of results) expect(r).toEqual({ id: results[0]!.id, merchant_id: merchantId, phone });
      expect(results[0]!.id).toMatch(/^opr_[0-9a-f]{32}$/);
      expect(await uncheckedStore(store).collection("merchant_operators").countDocuments({ merchantId, phone })).toBe(1);
      expect(await isOperator(merchantId, phone)).toEqual({ operator: true });
      expect(await isOperator(otherId, phone)).toEqual({ operator: false });
      expect(await isOperator(merchantId, freshPhone())).toEqual({ operator: false });
    });

    it("lists a merchant's operators oldest first, and removes one at once", async () => {
      const merchant = (await client.call(createMerchantOp, { name: "Initech" }, admin)).merchant.id;
      const [first, second] = [freshPhone(), freshPhone()];
      await client.call(addOperatorOp, { merchant_id: merchant, phone: first }, admin);
      await client.call(addOperatorOp, { merchant_id: merchant, phone: second }, admin);
      await client.call(addOperatorOp, { merchant_id: otherId, phone: first }, admin);
      const listed = await client.call(listOperatorsOp, { merchant_id: merchant }, admin);
      expect(listed.data.map((o) => o.phone).sort()).toEqual([first, second].sort());
      // Oldest first: the times never go down. Two adds in one millisecond are equally old (then in id order), so either order is right for them.
      const times = listed.data.map((o) => o.created_at);
      expect([...times].sort()).toEqual(times);
      const firstListed = listed.data.find((o) => o.phone === first);
      expect(firstListed).toEqual({ id: expect.stringMatching(/^opr_/), merchant_id: merchant, phone: first, created_at: expect.any(String) });

      // The phone as a URL path gives it: `+…`, or digits alone.
      expect(await client.call(removeOperatorOp, { merchant_id: merchant, phone: first.slice(1) }, admin)).toEqual({ id: firstListed!.id, merchant_id: merchant, phone: first, removed: true });
      expect(await isOperator(merchant, first)).toEqual({ operator: false });
      expect(await isOperator(otherId, first)).toEqual({ operator: true });
      expect((await client.call(listOperatorsOp, { merchant_id: merchant }, admin)).data.map((o) => o.phone)).toEqual([second]);
      expect(await codeOf(client.call(removeOperatorOp, { merchant_id: merchant, phone: first }, admin))).toBe("operator_not_found");
      // Added again after removal: an operator again.
      await client.call(addOperatorOp, { merchant_id: merchant, phone: first }, admin);
      expect(await isOperator(merchant, first)).toEqual({ operator: true });
    });

    it("refuses bad phones, unknown merchants and callers that are not allowed", async () => {
      expect(await codeOf(client.call(addOperatorOp, { merchant_id: merchantId, phone: "555-0100" }, admin))).toBe("invalid_phone_number");
      expect(await codeOf(client.call(addOperatorOp, { merchant_id: `mer_${"0".repeat(32)}`, phone: freshPhone() }, admin))).toBe("merchant_not_found");
      expect(await codeOf(client.call(addOperatorOp, { merchant_id: merchantId, phone: freshPhone() }, aMerchant))).toBe("permission_denied");
      expect(await codeOf(client.call(isOperatorOp, { merchant_id: merchantId, phone: freshPhone() }, aMerchant))).toBe("permission_denied");
      const unknown = `mer_${"0".repeat(32)}`;
      expect(await codeOf(client.call(listOperatorsOp, { merchant_id: unknown }, admin))).toBe("merchant_not_found");
      expect(await codeOf(client.call(removeOperatorOp, { merchant_id: unknown, phone: freshPhone() }, admin))).toBe("merchant_not_found");
      expect(await codeOf(client.call(removeOperatorOp, { merchant_id: merchantId, phone: "555-0100" }, admin))).toBe("invalid_phone_number");
      expect(await codeOf(client.call(listOperatorsOp, { merchant_id: merchantId }, aMerchant))).toBe("permission_denied");
      expect(await codeOf(client.call(removeOperatorOp, { merchant_id: merchantId, phone: freshPhone() }, service))).toBe("permission_denied");
    });
  });
});
