import { toCents, type AnyDomainEvent, type EventType } from "@payrail/contracts";
import { addBankingDays } from "./banking-days.ts";
import { balanceTransactionId, type BalanceTransactionDoc } from "./balance-transaction.entity.ts";

/** The events that move a merchant's money, as payments and refunds already publish them. */
export const BOOKS_EVENTS = ["transaction.completed", "transaction.returned", "refund.completed"] as const satisfies readonly EventType[];

/** Payrail moves dollars over ACH; a record that names no currency is in them. */
export const DEFAULT_CURRENCY = "usd";

/**
 * The balance transaction an event reports, or null when it moves no money: a settled debit
 * adds its amount, pending until `availableDays` banking days after it settled; a return and a
 * paid refund take theirs back at once (money already gone is never pending).
 */
export function booksEntry(event: AnyDomainEvent, availableDays: number): Omit<BalanceTransactionDoc, "counted"> | null {
  const at = event.created_at;
  const object = (event.data as { object: Record<string, unknown> }).object;
  const cents = toCents(object["amount"]);
  if (cents === null || cents === 0) return null;
  const currency = typeof object["currency"] === "string" ? object["currency"].toLowerCase() : DEFAULT_CURRENCY;
  const row = (type: BalanceTransactionDoc["type"], source: string, signed: number, availableAt: string) => ({
    _id: balanceTransactionId(type, source),
    merchantId: event.merchant_id,
    type,
    amountCents: signed,
    currency,
    source,
    eventId: event.id,
    createdAt: at,
    availableAt,
    payoutId: null,
  });
  if (event.type === "transaction.completed") {
    return row("debit", event.data.object.transaction_uuid, cents, addBankingDays(new Date(at), availableDays).toISOString());
  }
  if (event.type === "transaction.returned") return row("return", event.data.object.transaction_uuid, -cents, at);
  if (event.type === "refund.completed") return row("refund", event.data.object.id, -cents, at);
  return null;
}
