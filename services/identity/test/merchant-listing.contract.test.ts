import { createMerchantOp, generateApiKeyOp, listApiKeysOp, listMerchantsOp, revokeApiKeyOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { aMerchant, codeOf, startIdentity } from "./support/identity-harness.ts";

const variants = await infraVariants();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };

/** What `payrail merchant list` and `payrail merchant keys` ask identity. */
describe.each(variants)("listing merchants and their keys over $name", (variant) => {
  let client: Transport;

  beforeAll(async () => {
    if (variant.skipReason) return;
    ({ client } = await startIdentity(variant));
  });
  afterAll(() => variant.cleanup());

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("lists merchants newest first, a page at a time", async () => {
      const ids: string[] = [];
      for (const name of ["First", "Second", "Third"]) ids.push((await client.call(createMerchantOp, { name }, admin)).merchant.id);
      const all = await client.call(listMerchantsOp, { limit: 1000 }, admin);
      expect(all.data.map((m) => m.id)).toEqual(expect.arrayContaining(ids));
      // Newest first (merchants created in one millisecond may come in either order).
      const times = all.data.map((m) => m.created_at);
      expect(times).toEqual([...times].sort().reverse());
      expect(all.has_more).toBe(false);
      const page = await client.call(listMerchantsOp, { limit: 2 }, admin);
      expect(page).toEqual({ data: all.data.slice(0, 2), has_more: true });
    });

    it("lists a merchant's keys by prefix, oldest first, revoked ones marked, never the key", async () => {
      const created = await client.call(createMerchantOp, { name: "Keys" }, admin);
      // Keys made in the same millisecond are equally old (then ordered by id): make the second later.
      await new Promise((resolve) => setTimeout(resolve, 2));
      const second = await client.call(generateApiKeyOp, { merchant_id: created.merchant.id }, admin);
      await client.call(revokeApiKeyOp, { merchant_id: created.merchant.id, key_prefix: created.key_prefix }, admin);
      const keys = await client.call(listApiKeysOp, { merchant_id: created.merchant.id }, admin);
      expect(keys.data).toEqual([
        { key_prefix: created.key_prefix, livemode: false, created_at: expect.any(String), revoked_at: expect.any(String) },
        { key_prefix: second.key_prefix, livemode: false, created_at: expect.any(String), revoked_at: null },
      ]);
      expect(JSON.stringify(keys)).not.toContain(second.api_key);
    });

    it("answers merchant_not_found for an unknown merchant, and only to an admin", async () => {
      expect(await codeOf(client.call(listApiKeysOp, { merchant_id: "mer_00000000000000000000000000000000" }, admin))).toBe("merchant_not_found");
      expect(await codeOf(client.call(listMerchantsOp, { limit: 10 }, aMerchant))).toBe("permission_denied");
      expect(await codeOf(client.call(listApiKeysOp, { merchant_id: "mer_00000000000000000000000000000000" }, aMerchant))).toBe("permission_denied");
    });
  });
});
