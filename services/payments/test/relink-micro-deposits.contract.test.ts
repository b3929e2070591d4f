import {
  createRelinkTokenOp,
  getMandateCopyOp,
  getMandateOp,
  getRelinkValidationOp,
  relinkBankAccountOp,
  sandboxPublicTokenOp,
  startRelinkMicroDepositsOp,
  verifyRelinkMicroDepositsOp,
  type UserPrincipal,
} from "@payrail/contracts";
import type { Store } from "@payrail/store";
import { uncheckedStore } from "@payrail/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually.ts";
import { infraVariants } from "../../../test/support/infra.ts";
import { MANDATE_TEXT_VERSION, RELINK_MANDATE_TEXT_VERSION, renderMandateText } from "../src/domain/mandates/mandate-text.ts";
import type { MandateRecord } from "../src/domain/mandates/mandate.entity.ts";
import type { PaymentMethodRecord } from "../src/domain/bank-accounts/payment-method.entity.ts";
import { buildConsumerMandate } from "../src/domain/mandates/record-mandate.ts";
import { attestedMandateId } from "../src/domain/mandates/require-debit-mandate.ts";
import type { TransferAttemptRecord } from "../src/domain/transfers/transfer-attempt.entity.ts";
import { as, codeOf, consumer } from "./support/payments-harness.ts";
import { startRenewals, withCreateTransfer, type RenewalsHarness, type Subscription } from "./support/renewals-harness.ts";

const variants = await infraVariants();
const DAY_MS = 86_400_000;
const CHECKING = 1;
const UNVERIFIABLE = 2;

/**
 * A subscription's change of bank account to one the bank could not validate
 * (docs/decisions/0043-portal-micro-deposits.md), over the bus and the store: the change is
 * kept pending while the subscription draws on its current account, the same micro-deposits as
 * a checkout's validate it, and the right amounts switch the subscription under the new
 * mandate, once however many verifies race. The change of account's own words, and an old
 * re-link mandate's copy still in its own.
 */
describe.each(variants)("a subscription's pending change of account over $name", (variant) => {
  /** The funding source each transfer drew on, by idempotency key (`<checkout>-p<n>` for renewals). */
  const drawnOn = new Map<string, string>();
  let h: RenewalsHarness;
  let store: Store;

  beforeAll(async () => {
    if (variant.skipReason) return;
    h = await startRenewals(variant, {
      startAt: "2027-01-31T10:00:00.000Z",
      wrapTransfers: withCreateTransfer(async (input, inner) => {
        drawnOn.set(input.idempotencyKey, input.sourceFundingSource);
        return inner.createTransfer(input);
      }),
    });
    store = uncheckedStore(h.store);
  });
  afterAll(() => variant.cleanup());

  const uuid = (s: Subscription) => ({ subscription_transaction_uuid: s.uuid });
  const relink = async (s: Subscription, account: number, user: UserPrincipal = s.user, textVersion?: string) => {
    const token = await h.client.call(createRelinkTokenOp, uuid(s), as(s.user));
    const picked = await h.client.call(sandboxPublicTokenOp, { link_token: token.link_token }, as(h.merchant));
    const body = { ...uuid(s), public_token: picked.public_token, bankdata_account_id: picked.accounts[account]!.account_id };
    return h.client.call(relinkBankAccountOp, { ...body, mandate: { text_version: textVersion ?? token.mandate.text_version } }, as(user));
  };
  const start = (s: Subscription, user = s.user) => h.client.call(startRelinkMicroDepositsOp, uuid(s), as(user));
  const verify = (s: Subscription, amounts: [string, string], user = s.user) => h.client.call(verifyRelinkMicroDepositsOp, { ...uuid(s), amounts }, as(user));
  const state = (s: Subscription, user = s.user) => h.client.call(getRelinkValidationOp, uuid(s), as(user));
  const method = async (s: Subscription) => (await store.collection<PaymentMethodRecord>("payment_methods").findOne({ _id: s.checkoutId }))!;
  const attempt = async (s: Subscription) => (await store.collection<TransferAttemptRecord>("transfer_attempts").findOne({ _id: s.checkoutId }))!;
  /** The pair the simulator sent to the pending account (what the sandbox's notice shows the consumer). */
  const sentAmounts = async (s: Subscription): Promise<[string, string]> => {
    const id = (await method(s)).pendingRelink!.microDeposits!.reference!.split("/").at(-1)!;
    const pair = await store.collection<{ _id: string; amountsCents: number[] }>("sandbox_micro_deposits").findOne({ _id: id });
    return pair!.amountsCents.map((cents) => `0.${String(cents).padStart(2, "0")}`) as [string, string];
  };
  const wrongPair = async (s: Subscription): Promise<[string, string]> => {
    const sent = await sentAmounts(s);
    return ["0.99", "0.98", "0.97", "0.96"].filter((x) => !sent.includes(x)).slice(0, 2) as [string, string];
  };
  const mandatesOf = (s: Subscription) => store.collection<MandateRecord>("mandates").find({ checkoutId: s.checkoutId });

  describe.skipIf(!!variant.skipReason)("the walk", () => {
    it("keeps the change pending while renewals draw on the current account, and switches under the new mandate on the right amounts: the next renewal draws on the new account", async () => {
      const s = await h.subscription();
      const before = await attempt(s);
      const oldMandate = (await method(s)).mandateId ?? attestedMandateId(s.checkoutId);

      const pending = await relink(s, UNVERIFIABLE);
      expect(pending).toMatchObject({
        message: "Bank account change pending",
        mandate_id: expect.stringMatching(/^mdt_[0-9a-f]{32}$/),
        status: "active",
        validation: { object: "bank_account_validation", checkout_id: s.checkoutId, status: "micro_deposits_sent", pending_change: true, validation: null, micro_deposits: { tries_left: 3 } },
      });
      expect(Date.parse(pending.validation!.micro_deposits!.expires_at) - Date.parse(pending.validation!.micro_deposits!.sent_at)).toBe(10 * DAY_MS);
      // Nothing switched: the account, the mandate (none stored for the pending one yet).
      expect(await attempt(s)).toMatchObject({ accountId: before.accountId, fundingSourceUrl: before.fundingSourceUrl });
      expect((await method(s)).mandateId ?? attestedMandateId(s.checkoutId)).toBe(oldMandate);
      expect(await codeOf(h.client.call(getMandateOp, { mandate_id: pending.mandate_id }, as(h.merchant)))).toBe("mandate_not_found");
      expect(await state(s)).toEqual(pending.validation);
      // Started again: the pair still open, nothing sent twice.
      expect(await start(s)).toEqual(pending.validation);

      // The renewal due meanwhile draws on the current account.
      const [, renewal] = [...(await h.advance(s, "2027-02-28T10:00:00.000Z"))].sort((x, y) => x.id - y.id);
      expect(drawnOn.get(`${s.checkoutId}-p1`)).toBe(before.fundingSourceUrl);
      await h.simulate(renewal!.transaction_uuid, "completed");

      const [a, b] = await sentAmounts(s);
      const mismatch = await verify(s, await wrongPair(s)).catch((e: { code: string; message: string }) => e);
      expect(mismatch).toMatchObject({ code: "micro_deposit_amounts_mismatch", message: expect.stringContaining("2 tries left") });
      const switched = await verify(s, [b, a]);
      expect(switched).toMatchObject({ checkout_id: s.checkoutId, status: "validated", pending_change: false, validation: { method: "micro_deposits" } });
      const depositedTo = (await method(s)).microDeposits!.fundingSourceUrl;
      expect(await method(s)).toMatchObject({ mandateId: pending.mandate_id, bankAccount: { mask: "2222" }, pendingRelink: null, validation: { method: "micro_deposits" } });
      expect(await attempt(s)).toMatchObject({ fundingSourceUrl: depositedTo });
      expect(depositedTo).not.toBe(before.fundingSourceUrl);

      const mandate = await h.client.call(getMandateOp, { mandate_id: pending.mandate_id }, as(h.merchant));
      expect(mandate).toMatchObject({ type: "recurring", status: "active", text_version: RELINK_MANDATE_TEXT_VERSION, bank_account: { mask: "2222" }, validation: { method: "micro_deposits" } });
      expect(await h.client.call(getMandateOp, { mandate_id: oldMandate }, as(h.merchant))).toMatchObject({ status: "revoked" });
      // Verified again: the state, nothing switched twice.
      expect(await verify(s, [a, b])).toEqual(switched);

      // The next renewal draws on the new account.
      await h.advance(s, "2027-03-31T10:00:00.000Z");
      expect(drawnOn.get(`${s.checkoutId}-p2`)).toBe(depositedTo);
      expect((await h.client.call(getMandateOp, { mandate_id: pending.mandate_id }, as(h.merchant))).last_debit_at).not.toBeNull();
    });

    it("locks the pending account at the third wrong pair and keeps the subscription on its account; another account is then chosen", async () => {
      const s = await h.subscription();
      const before = await attempt(s);
      await relink(s, UNVERIFIABLE);
      const wrong = await wrongPair(s);
      expect(await codeOf(verify(s, wrong))).toBe("micro_deposit_amounts_mismatch");
      expect(await codeOf(verify(s, wrong))).toBe("micro_deposit_amounts_mismatch");
      expect(await codeOf(verify(s, wrong))).toBe("micro_deposits_locked");
      expect(await codeOf(verify(s, await sentAmounts(s)))).toBe("micro_deposits_locked");
      expect(await codeOf(start(s))).toBe("micro_deposits_locked");
      expect(await state(s)).toMatchObject({ status: "locked", pending_change: true });
      expect(await attempt(s)).toMatchObject({ fundingSourceUrl: before.fundingSourceUrl });

      const changed = await relink(s, CHECKING);
      expect(changed).toEqual({ message: "Bank account changed", mandate_id: expect.stringMatching(/^mdt_/), status: "active" });
      expect(await state(s)).toMatchObject({ status: "validated", pending_change: false, validation: { method: "bank_data_provider" } });
      expect(await method(s)).toMatchObject({ pendingRelink: null, mandateId: changed.mandate_id, bankAccount: { mask: "1111" } });
    });

    it("makes an unpaid subscription (its account blocked) active again from its next period once the pending account is validated, with no catch-up charge", async () => {
      const s = await h.subscription();
      const [, renewal] = [...(await h.advance(s, "2027-02-28T10:00:00.000Z"))].sort((x, y) => x.id - y.id);
      await h.simulate(renewal!.transaction_uuid, "failed", "R10");
      await eventually(async () => expect(await attempt(s)).toMatchObject({ subscriptionStatus: "unpaid" }));
      const pending = await relink(s, UNVERIFIABLE);
      expect(pending).toMatchObject({ message: "Bank account change pending", status: "unpaid" });
      expect(await attempt(s)).toMatchObject({ subscriptionStatus: "unpaid" });
      const switched = await verify(s, await sentAmounts(s));
      expect(switched).toMatchObject({ status: "validated", pending_change: false });
      const after = await attempt(s);
      expect(after).toMatchObject({ subscriptionStatus: "active", accountBlockedAt: null, fundingSourceUrl: (await method(s)).microDeposits!.fundingSourceUrl });
      expect(Date.parse(after.nextChargeAt!)).toBeGreaterThan(h.clock.ms);
    });

    it("expires the pair 10 days after it was sent; a start sends a new one, which switches the account", async () => {
      const s = await h.subscription();
      await relink(s, UNVERIFIABLE);
      const old = await sentAmounts(s);
      h.clock.ms += 10 * DAY_MS + 60_000;
      expect(await codeOf(verify(s, old))).toBe("micro_deposits_expired");
      expect(await start(s)).toMatchObject({ status: "micro_deposits_sent", pending_change: true, micro_deposits: { tries_left: 3 } });
      expect((await method(s)).pendingRelink!.microDeposits!.round).toBe(2);
      expect(await verify(s, await sentAmounts(s))).toMatchObject({ status: "validated", pending_change: false });
    });
  });

  describe.skipIf(!!variant.skipReason)("races and whose subscription", () => {
    it("switches once when 20 right verifies race, and counts a wrong pair once per call", async () => {
      const s = await h.subscription();
      await relink(s, UNVERIFIABLE);
      const wrongs = await Promise.allSettled(Array.from({ length: 2 }, async () => verify(s, await wrongPair(s))));
      const codes = wrongs.map((w) => (w.status === "rejected" ? (w.reason as { code: string }).code : "resolved"));
      for (const code of codes) expect(["micro_deposit_amounts_mismatch", "transfer_in_progress"]).toContain(code);
      const counted = codes.filter((c) => c === "micro_deposit_amounts_mismatch").length;
      expect((await state(s)).micro_deposits!.tries_left).toBe(3 - counted);

      const versionBefore = (await method(s)).validationVersion!;
      const amounts = await sentAmounts(s);
      const verifies = await Promise.allSettled(Array.from({ length: 20 }, () => verify(s, amounts)));
      for (const v of verifies) {
        if (v.status === "fulfilled") expect(v.value).toMatchObject({ status: "validated", pending_change: false });
        else expect((v.reason as { code: string }).code).toBe("transfer_in_progress");
      }
      expect(verifies.some((v) => v.status === "fulfilled")).toBe(true);
      // One validation (+1) and one save of the switched method (+1); a second of either would count.
      const after = await method(s);
      expect(after.validationVersion).toBe(versionBefore + 2);
      expect(after.version).toBe(2);
      const mandates = await mandatesOf(s);
      expect(mandates.filter((m) => m.status === "active")).toHaveLength(1);
      expect(mandates.filter((m) => m.textVersion === RELINK_MANDATE_TEXT_VERSION)).toHaveLength(1);
    });

    it("answers 404 to another consumer and to a sandbox sign-in of another merchant, on every operation", async () => {
      const s = await h.subscription();
      await relink(s, UNVERIFIABLE);
      const amounts = await sentAmounts(s);
      const stranger = consumer();
      const elsewhere: UserPrincipal = { ...s.user, merchantId: "mer_0123456789abcdef0123456789abcdef" };
      for (const user of [stranger, elsewhere]) {
        expect(await codeOf(state(s, user))).toBe("transaction_not_found");
        expect(await codeOf(start(s, user))).toBe("transaction_not_found");
        expect(await codeOf(verify(s, amounts, user))).toBe("transaction_not_found");
        expect(await codeOf(relink(s, UNVERIFIABLE, user))).toBe("transaction_not_found");
      }
      // The consumer's own sandbox sign-in at the subscription's merchant reaches it.
      expect(await state(s, { ...s.user, merchantId: h.merchant.merchantId })).toMatchObject({ pending_change: true, status: "micro_deposits_sent" });
      expect(await method(s)).toMatchObject({ pendingRelink: { microDeposits: { failedTries: 0 } } });
    });
  });

  describe.skipIf(!!variant.skipReason)("the change of account's words", () => {
    it("records the re-link under its own wording, refuses the payment's version for it, and still renders an old re-link mandate's copy in its own words", async () => {
      const s = await h.subscription();
      const token = await h.client.call(createRelinkTokenOp, uuid(s), as(s.user));
      expect(token.mandate.text_version).toBe(RELINK_MANDATE_TEXT_VERSION);
      expect(token.mandate.text).toMatch(/^By confirming this change of bank account, you authorize Merchant \w+ to debit the bank account you choose, instead of the account you pay from now, for \$107\.50 every month, starting with the charge due on \w+ \d+, 2027 \(or, when your bank must first confirm the account with two small deposits, the first charge after you confirm them\), until you cancel, as an electronic \(ACH\) debit\./);
      expect(token.mandate.text).toContain("You can revoke this authorization at any time");
      expect(await codeOf(relink(s, CHECKING, s.user, MANDATE_TEXT_VERSION))).toBe("mandate_text_outdated");

      const changed = await relink(s, CHECKING);
      const service = as({ kind: "service", service: "notices" });
      const copy = await h.client.call(getMandateCopyOp, { mandate_id: changed.mandate_id }, service);
      expect(copy.text).toBe(token.mandate.text);

      // A re-link accepted before the change of account had its words: the payment's, version 2026-11-25.1.
      const checkout = { id: s.checkoutId, merchant_id: h.merchant.merchantId, amount_cents: 10750, currency: "USD", is_subscription: true, plan_type: "monthly" as const };
      const firstDebitOn = new Date("2027-02-28T10:00:00.000Z");
      const acceptance = { textVersion: MANDATE_TEXT_VERSION, ipAddress: null, userAgent: null };
      const merchantName = token.mandate.text.split(" you authorize ")[1]!.split(" to debit")[0]!;
      const old = buildConsumerMandate(merchantName, checkout, s.user.userId, acceptance, { institution: null, mask: "0000" }, new Date("2027-01-31T12:00:00.000Z"), firstDebitOn);
      await store.collection<MandateRecord>("mandates").insertOne(old);
      const oldCopy = await h.client.call(getMandateCopyOp, { mandate_id: old._id }, service);
      const oldWords = renderMandateText({ merchantName, checkout, firstDebitOn }, MANDATE_TEXT_VERSION)!;
      expect(oldWords.sha256).toBe(old.textSha256);
      expect(oldCopy.text).toBe(oldWords.text);
      expect(oldCopy.text).toMatch(/^By confirming this payment, you authorize/);
    });
  });
});
