import { describe, expect, it } from "vitest";
import { bankAccountView } from "./bank-account-view.ts";
import type { BlockedBankAccountRecord } from "../returns/blocked-bank-account.entity.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";

const method = { _id: "chk_1", bankAccount: { institution: "First Platypus Bank", mask: "0000" } } as PaymentMethodRecord;
const block: BlockedBankAccountRecord = { _id: "fp-blocked", failureCode: "R10", blockedAt: "2026-11-26T00:00:00.000Z", transactionUuid: "sc-1", checkoutId: "chk_0", merchantId: "mer_0" };
const deps = { blocks: { find: async (fp: string | null | undefined) => (fp === block._id ? block : null) } };

describe("bankAccountView", () => {
  it("says blocked when the funding source's fingerprint is blocked", async () => {
    expect(await bankAccountView(deps, method, "fp-blocked")).toEqual({ institution: "First Platypus Bank", mask: "0000", blocked: true });
  });
  it("says not blocked for another fingerprint, or none yet (no funding source before the first debit)", async () => {
    expect((await bankAccountView(deps, method, "fp-other"))?.blocked).toBe(false);
    expect((await bankAccountView(deps, method, undefined))?.blocked).toBe(false);
  });
  it("answers null for a checkout without a payment method", async () => {
    expect(await bankAccountView(deps, null, "fp-blocked")).toBeNull();
  });
});
