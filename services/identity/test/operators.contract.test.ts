import { addOperatorOp, createMerchantOp, isOperatorOp } from "@payrail/contracts";
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
      for (const r of results) expect(r).toEqual({ merchant_id: merchantId, phone });
      expect(await uncheckedStore(store).collection("merchant_operators").countDocuments({ merchantId, phone })).toBe(1);
      expect(await isOperator(merchantId, phone)).toEqual({ operator: true });
      expect(await isOperator(otherId, phone)).toEqual({ operator: false });
      expect(await isOperator(merchantId, freshPhone())).toEqual({ operator: false });
    });

    it("refuses bad phones, unknown merchants and callers that are not allowed", async () => {
      expect(await codeOf(client.call(addOperatorOp, { merchant_id: merchantId, phone: "555-0100" }, admin))).toBe("invalid_phone_number");
      expect(await codeOf(client.call(addOperatorOp, { merchant_id: `mer_${"0".repeat(32)}`, phone: freshPhone() }, admin))).toBe("merchant_not_found");
      expect(await codeOf(client.call(addOperatorOp, { merchant_id: merchantId, phone: freshPhone() }, aMerchant))).toBe("permission_denied");
      expect(await codeOf(client.call(isOperatorOp, { merchant_id: merchantId, phone: freshPhone() }, aMerchant))).toBe("permission_denied");
    });
  });
});
