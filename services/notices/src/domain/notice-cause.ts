import { toCents, type AnyDomainEvent, type NoticeType } from "@payrail/contracts";

/** What a notice is about, read from the event that causes it (no contact of the consumer: events carry none). */
export interface NoticeCause {
  eventId: string;
  merchantId: string;
  livemode: boolean;
  type: NoticeType;
  checkoutId: string;
  transactionUuid: string | null;
  /** The consumer, when the event names them (transaction records do). */
  userId: string | null;
  /** An authorization copy's mandate: its words come from payments. */
  mandateId: string | null;
  /** What the notice says beyond the merchant and the purchase. */
  facts: NoticeFacts;
}

export interface NoticeFacts {
  amountCents?: number;
  /** A refund's new state: `approved`, `rejected`, `paid`, `failed`. */
  refundStatus?: "approved" | "rejected" | "paid" | "failed";
  /** A failure's or return's reason as the bank gave it. */
  failureReason?: string;
  /** Whether a failed debit was a subscription's (the consumer can change the account it draws on). */
  subscriptionUuid?: string;
  /** Micro-deposits: when their amounts stop being accepted, and (sandbox only) the amounts themselves. */
  expiresAt?: string;
  microDepositAmounts?: string[];
  /** Micro-deposits to a subscription's pending change of account (confirmed in the portal). */
  pendingChange?: boolean;
  /** An upcoming charge: when it is made, and what the previous one was (it differs: a 10-day notice). */
  chargeAt?: string;
  previousAmountCents?: number;
}

const REFUND_STATUS = { "refund.approved": "approved", "refund.rejected": "rejected", "refund.completed": "paid", "refund.failed": "failed" } as const;

/** The events that cause notices (docs/decisions/0009-consumer-notices.md), and `payment_method.saved`, which tells whose checkout it is. */
export const NOTICE_EVENTS = [
  "mandate.created",
  "transaction.completed",
  "transaction.failed",
  "transaction.returned",
  "refund.approved",
  "refund.rejected",
  "refund.completed",
  "refund.failed",
  "subscription.cancelled",
  "bank_account.micro_deposits_sent",
  "subscription.upcoming",
  "payment_method.saved",
] as const;

/** The notice an event causes, or null when it causes none. Pure. */
export function noticeCause(event: AnyDomainEvent): NoticeCause | null {
  const base = { eventId: event.id, merchantId: event.merchant_id, livemode: event.livemode ?? false, userId: null, mandateId: null };
  switch (event.type) {
    case "mandate.created": {
      const mandate = event.data.object;
      return { ...base, type: "authorization_copy", checkoutId: mandate.checkout_id, transactionUuid: null, mandateId: mandate.id, facts: {} };
    }
    case "transaction.completed":
    case "transaction.failed":
    case "transaction.returned": {
      const tx = event.data.object as Record<string, unknown> & { transaction_uuid: string; transaction_status: string };
      // A transfer the provider cancelled moved no money: nothing to tell.
      if (tx.transaction_status === "cancelled") return null;
      const common = {
        ...base,
        checkoutId: String(tx["checkout"]),
        transactionUuid: tx.transaction_uuid,
        userId: typeof tx["user_id"] === "string" ? tx["user_id"] : null,
      };
      const amountCents = toCents(tx["amount"]) ?? undefined;
      if (event.type === "transaction.completed") return { ...common, type: "payment_receipt", facts: { amountCents } };
      const failureReason = typeof tx["failure_reason"] === "string" ? tx["failure_reason"] : undefined;
      return { ...common, type: "payment_failed", facts: { amountCents, failureReason } };
    }
    case "refund.approved":
    case "refund.rejected":
    case "refund.completed":
    case "refund.failed": {
      const refund = event.data.object as Record<string, unknown> & { transaction_uuid: string };
      return {
        ...base,
        type: "refund_update",
        checkoutId: String(refund["checkout"]),
        transactionUuid: refund.transaction_uuid,
        facts: { amountCents: toCents(refund["amount"]) ?? undefined, refundStatus: REFUND_STATUS[event.type] },
      };
    }
    case "subscription.cancelled": {
      const sub = event.data.object;
      return { ...base, type: "subscription_cancelled", checkoutId: String(sub["checkout_id"]), transactionUuid: String(sub["transaction_uuid"]), facts: {} };
    }
    case "bank_account.micro_deposits_sent": {
      const sent = event.data.object;
      return {
        ...base,
        type: "micro_deposits",
        checkoutId: sent.checkout_id,
        transactionUuid: null,
        userId: sent.user_id,
        facts: { expiresAt: sent.expires_at, ...(sent.amounts ? { microDepositAmounts: sent.amounts } : {}), ...(sent.pending_change ? { pendingChange: true } : {}) },
      };
    }
    case "subscription.upcoming": {
      const sub = event.data.object;
      const upcoming = (sub["upcoming_charge"] ?? {}) as Record<string, unknown>;
      const facts: NoticeFacts = {
        amountCents: toCents(upcoming["amount"]) ?? undefined,
        previousAmountCents: toCents(upcoming["previous_amount"]) ?? undefined,
        chargeAt: typeof upcoming["charge_at"] === "string" ? upcoming["charge_at"] : undefined,
      };
      return { ...base, type: "upcoming_charge", checkoutId: String(sub["checkout_id"]), transactionUuid: String(sub["transaction_uuid"]), facts };
    }
    default:
      return null;
  }
}

/** An upcoming charge whose amount differs from the previous charge's (the 10-day notice of Reg E 1005.10(d)). */
export function amountChanges(facts: Pick<NoticeFacts, "amountCents" | "previousAmountCents">): boolean {
  const { amountCents, previousAmountCents } = facts;
  return amountCents !== undefined && previousAmountCents !== undefined && amountCents !== previousAmountCents;
}
