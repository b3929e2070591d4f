import { prefixedHexId, randomUUID } from "@payrail/runtime";
import { groupOf } from "./webhook-event.entity.ts";

/**
 * The sample object of a test event (`POST /api/sandbox/events`): the shape the API shows for
 * the type's resource, with fresh ids, so a receiver can be built against it before any real
 * money moves. `status` follows the type (`refund.approved` → `approved`). The ids link to
 * nothing that exists: `payrail trigger` makes real, linked objects instead.
 */
export function sampleObject(type: string, at: string): Record<string, unknown> {
  const what = type.slice(type.indexOf(".") + 1);
  const transactionUuid = prefixedHexId("sc-");
  const checkoutId = prefixedHexId("chk_");
  switch (groupOf(type)) {
    case "checkout":
      return { id: checkoutId, status: what === "created" ? "open" : what, amounts: { total: "107.50", currency: "USD" }, merchant_checkout_id: "test-order", created_at: at, updated_at: at };
    case "transaction":
      return {
        id: 1,
        checkout_id: 1,
        checkout: checkoutId,
        transaction_uuid: transactionUuid,
        processor_transaction_id: randomUUID(),
        transaction_status: what === "created" ? "pending" : what,
        amount: 107.5,
        currency: "USD",
        created_at: at,
        updated_at: at,
      };
    case "refund":
      return {
        id: prefixedHexId("rfd_"),
        transaction_uuid: transactionUuid,
        checkout_id: 1,
        checkout: checkoutId,
        amount: 107.5,
        currency: "USD",
        status: what === "requested" ? "pending" : what,
        reason: "test event",
        refund_transaction_id: null,
        failure_code: null,
        failure_reason: null,
        created_at: at,
        updated_at: at,
      };
    case "merchant":
      return { group: "unauthorized", rate: 0.004, threshold: 0.005, warning_at: 0.004, returns: 4, debits: 1000, window_days: 60 };
    case "subscription":
      return {
        id: checkoutId,
        object: "subscription",
        checkout_id: checkoutId,
        transaction_uuid: transactionUuid,
        status: what === "renewed" || what === "reactivated" ? "active" : what,
        plan_type: "monthly",
        current_period_start: null,
        current_period_end: null,
        next_charge_at: null,
      };
    case "mandate":
      return {
        id: prefixedHexId("mdt_"),
        checkout_id: checkoutId,
        type: "recurring",
        status: what === "created" ? "active" : what,
        text_version: "2026-11-25.1",
        text_sha256: "0".repeat(64),
        accepted_at: at,
        ip_address: "203.0.113.7",
        user_agent: "Mozilla/5.0 (test event)",
        bank_account: { institution: "First Platypus Bank", mask: "0000" },
        last_debit_at: null,
        revoked_at: what === "revoked" ? at : null,
      };
    case "payment_method":
      return {
        object: "payment_method",
        checkout_id: checkoutId,
        blocked: true,
        failure_code: "R10",
        failure_reason: "Customer advises the debit was not authorized (ACH return R10)",
        blocked_at: at,
        bank_account: { institution: "First Platypus Bank", mask: "0000" },
        subscription_status: "unpaid",
      };
    default:
      return { id: prefixedHexId("we_"), url: "https://example.com/webhooks", status: "disabled", created_at: at, updated_at: at };
  }
}
