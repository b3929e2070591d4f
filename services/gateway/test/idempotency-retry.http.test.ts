import { randomBytes } from "node:crypto";
import type { TransferPort } from "@payrail/payments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { linkedCheckoutOverRpc } from "../../../test/support/rpc-flow.ts";
import { startStack, type Stack } from "../../../test/support/stack.ts";
import { transfersWith } from "../../../test/support/transfers-with.ts";
import { until } from "../../../test/support/until.ts";

/*
 * Issue 21, item 7: an answer that says "retry shortly" (409 transfer_in_progress) is not kept
 * under the Idempotency-Key, so the retry it invites, with the same key, gets the real answer.
 */
const variants = await infraVariants();

/** A transfer provider whose transfers wait until `open()` is called. */
function gatedTransfers() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  const wrap = (inner: TransferPort): TransferPort =>
    transfersWith(inner, {
      async createTransfer(input) {
        waiting++;
        await gate;
        return inner.createTransfer(input);
      },
    });
  return { wrap, open: () => open(), waiting: () => waiting };
}

describe.each(variants)("Idempotency-Key and answers that say retry, over $name", (variant) => {
  let stack: Stack;
  let merchant: { id: string; apiKey: string };
  const transfers = gatedTransfers();

  beforeAll(async () => {
    if (variant.skipReason) return;
    stack = await startStack(variant, { wrapTransfers: transfers.wrap });
    merchant = await stack.merchant("Acme");
  });
  afterAll(async () => {
    transfers.open();
    await stack?.close();
    await variant.cleanup();
  });

  it.skipIf(!!variant.skipReason)("answers a retry with the same key after a 409 transfer_in_progress with the real outcome", async () => {
    const principal = { kind: "merchant" as const, merchantId: merchant.id, keyPrefix: "sk_test_x", livemode: false };
    const checkout = await linkedCheckoutOverRpc(stack.transport, principal);
    const charge = (key?: string) =>
      stack.app.inject({
        method: "POST",
        url: "/api/merchants/payment_preprocess/get_processor_token",
        payload: { checkout_id: checkout.id },
        headers: { "api-key": merchant.apiKey, ...(key === undefined ? {} : { "idempotency-key": key }) },
      });
    // A first call holds the checkout's transfer, waiting on the provider.
    const first = charge();
    await until("the first call at the provider", () => transfers.waiting() === 1);
    const key = `key-${randomBytes(8).toString("hex")}`;
    const busy = await charge(key);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe("transfer_in_progress");
    expect(busy.headers["retry-after"]).toBe("1");

    transfers.open();
    const done = await first;
    expect(done.statusCode).toBe(200);
    const retry = await charge(key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(done.json());
    // It ran (and found the transfer made): nothing was replayed from the ledger.
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
    // From now on the key holds that outcome.
    const again = await charge(key);
    expect(again.json()).toEqual(done.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
  });
});
