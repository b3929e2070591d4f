import { centsToDecimal, type DomainEvent } from "@payrail/contracts";
import { toValidationState } from "./account-validation.ts";
import type { AccountView } from "./micro-deposits-account.ts";
import type { PaymentMethodRecord } from "./payment-method.entity.ts";
import { envelope } from "../shared/payment-events.ts";

/**
 * bank_account.validation_required / bank_account.validated: the account's validation as it is
 * after the change (`after` holds the change, its `validationVersion` already counted).
 */
export function bankAccountEvent(type: "bank_account.validation_required" | "bank_account.validated", after: PaymentMethodRecord | AccountView, at: string, livemode: boolean): DomainEvent {
  const state = toValidationState(after);
  const object = {
    object: "bank_account",
    checkout_id: after._id,
    status: state.status,
    pending_change: state.pending_change,
    validation: state.validation,
    micro_deposits: state.micro_deposits,
    bank_account: { institution: after.bankAccount?.institution ?? null, mask: after.bankAccount?.mask ?? null },
  };
  return envelope(type, { type: "bank_account", id: after._id, version: after.validationVersion ?? 1 }, after.merchantId, at, object, livemode);
}

/** Internal, for the consumer's notice: the pair was sent. The sandbox's amounts ride along (a live provider never reveals them). */
export function microDepositsSentEvent(after: PaymentMethodRecord | AccountView, at: string, livemode: boolean, sandboxAmountsCents: readonly number[] | undefined): DomainEvent {
  const object = {
    checkout_id: after._id,
    user_id: after.userId,
    expires_at: after.microDeposits?.expiresAt ?? at,
    ...(sandboxAmountsCents ? { amounts: sandboxAmountsCents.map(centsToDecimal) } : {}),
    ...("slot" in after && after.slot === "pending" ? { pending_change: true } : {}),
  };
  return envelope("bank_account.micro_deposits_sent", { type: "bank_account", id: after._id, version: after.validationVersion ?? 1 }, after.merchantId, at, object, livemode);
}
