import type { DomainEvent } from "@payrail/contracts";
import type { AccountSlot, PaymentMethodRecord, PendingRelinkRecord } from "../payment-method.entity.ts";

/** The bank account saved for each checkout (one per checkout; a re-link replaces it). */
export interface PaymentMethodsPort {
  /**
   * Saves the method with its payment_method.saved event in one write: an insert when there was
   * none (`previous` null), else a replacement conditional on `previous`'s version. False when a
   * racing save got there first (nothing written).
   */
  save(record: PaymentMethodRecord, previous: PaymentMethodRecord | null, events: DomainEvent | readonly DomainEvent[]): Promise<boolean>;
  findByCheckout(checkoutId: string): Promise<PaymentMethodRecord | null>;
  /**
   * Fraud screening: how many different bank accounts the phone linked (or re-linked) since
   * `since`, among its `limit` latest payment methods (an index read, bounded).
   */
  accountsLinkedByPhone(phone: string, since: string, limit: number): Promise<number>;
  /**
   * One change of the validation (micro-deposits, validated) of the account in `slot` (the
   * method's own, or its pending change's), with its events, in one write conditional on that
   * account still being `accountId` at `validationVersion` `expected` (the write sets one more).
   * The method after, or null when another change (or a re-link) came first.
   */
  changeValidation(
    checkoutId: string,
    slot: AccountSlot,
    accountId: string,
    /** The method's `validationVersion` as read (undefined: saved before it was counted). */
    expected: number | undefined,
    set: Pick<PaymentMethodRecord, "microDeposits"> & Partial<Pick<PaymentMethodRecord, "validation">>,
    events: readonly DomainEvent[],
  ): Promise<PaymentMethodRecord | null>;
  /**
   * Records a subscription's pending change of account (replacing any earlier one), with its
   * events, in one write conditional on `validationVersion` `expected` (the write sets one more).
   */
  setPendingRelink(checkoutId: string, expected: number | undefined, pending: PendingRelinkRecord, events: readonly DomainEvent[]): Promise<PaymentMethodRecord | null>;
}
