import {
  AppError,
  createMerchantOp,
  generateApiKeyOp,
  getMerchantOp,
  resolveApiKeyOp,
  revokeApiKeyOp,
} from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import { sha256Hex, silentLogger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { start } from "../src/index.ts";

const variants = await infraVariants();
const admin = { requestId: "req_test", principal: { kind: "admin" as const } };
const anonymous = { requestId: "req_test", principal: { kind: "anonymous" as const } };

describe.each(variants)("identity service over $name", (variant) => {
  let client: Transport;
  let store: Store;

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    await start({ transport: await variant.transport(), store, logger: silentLogger(), livemode: false });
    client = await variant.transport();
  });
  afterAll(() => variant.cleanup());

  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "resolved",
      (e: unknown) => (e instanceof AppError ? e.code : String(e)),
    );

  describe.skipIf(!!variant.skipReason)("operations", () => {
    it("creates a merchant whose key resolves to it and is stored only as a hash", async () => {
      const out = await client.call(createMerchantOp, { name: "Acme", destination_funding_source: "https://api-sandbox.dwolla.com/funding-sources/abc" }, admin);
      expect(out.merchant).toMatchObject({ id: expect.stringMatching(/^mer_[0-9a-f]{32}$/), name: "Acme" });
      expect(out.api_key).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
      const resolved = await client.call(resolveApiKeyOp, { api_key: out.api_key }, anonymous);
      expect(resolved).toEqual({ merchant_id: out.merchant.id, key_prefix: out.key_prefix, livemode: false });

      const stored = await store.collection("api_keys").find({ merchantId: out.merchant.id });
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(out.api_key);
      expect(stored[0]!._id).toBe(sha256Hex(out.api_key));
    });

    it("keeps old keys valid when a new one is issued, until revoked", async () => {
      const { merchant, api_key, key_prefix } = await client.call(createMerchantOp, { name: "Rotating" }, admin);
      const second = await client.call(generateApiKeyOp, { merchant_id: merchant.id }, admin);
      expect(second.api_key).not.toBe(api_key);
      await expect(client.call(resolveApiKeyOp, { api_key }, anonymous)).resolves.toBeTruthy();
      await client.call(revokeApiKeyOp, { merchant_id: merchant.id, key_prefix }, admin);
      expect(await codeOf(client.call(resolveApiKeyOp, { api_key }, anonymous))).toBe("api_key_invalid");
      await expect(client.call(resolveApiKeyOp, { api_key: second.api_key }, anonymous)).resolves.toMatchObject({ merchant_id: merchant.id });
      // Revoking again answers the same; an unknown prefix is a 404.
      await expect(client.call(revokeApiKeyOp, { merchant_id: merchant.id, key_prefix }, admin)).resolves.toEqual({ revoked: true, key_prefix });
      expect(await codeOf(client.call(revokeApiKeyOp, { merchant_id: merchant.id, key_prefix: "sk_test_zzzzzzzz" }, admin))).toBe("api_key_not_found");
    });

    it("issues 20 distinct keys when asked concurrently", async () => {
      const { merchant } = await client.call(createMerchantOp, { name: "Busy" }, admin);
      const keys = await Promise.all(Array.from({ length: 20 }, () => client.call(generateApiKeyOp, { merchant_id: merchant.id }, admin)));
      expect(new Set(keys.map((k) => k.api_key)).size).toBe(20);
    });

    it("rejects malformed and unknown keys alike", async () => {
      for (const api_key of ["x", `sk_test_${"0".repeat(48)}`, `sk_live_${"0".repeat(47)}!`]) {
        expect(await codeOf(client.call(resolveApiKeyOp, { api_key }, anonymous))).toBe("api_key_invalid");
      }
    });

    it("lets only admins manage merchants, and a merchant read only itself", async () => {
      const merchant = { requestId: "r", principal: { kind: "merchant" as const, merchantId: "mer_x", keyPrefix: "p", livemode: false } };
      expect(await codeOf(client.call(createMerchantOp, { name: "Nope" }, merchant))).toBe("permission_denied");
      expect(await codeOf(client.call(createMerchantOp, { name: "Nope" }, anonymous))).toBe("permission_denied");
      const { merchant: m } = await client.call(createMerchantOp, { name: "Self" }, admin);
      const self = { requestId: "r", principal: { kind: "merchant" as const, merchantId: m.id, keyPrefix: "p", livemode: false } };
      await expect(client.call(getMerchantOp, { merchant_id: m.id }, self)).resolves.toMatchObject({ id: m.id });
      expect(await codeOf(client.call(getMerchantOp, { merchant_id: m.id }, merchant))).toBe("merchant_not_found");
      expect(await codeOf(client.call(generateApiKeyOp, { merchant_id: `mer_${"0".repeat(32)}` }, admin))).toBe("merchant_not_found");
    });
  });
});
