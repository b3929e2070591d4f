import { decimalInWords, shortDayInWords } from "@payrail/contracts";

/** Money in major units as a consumer reads it: `$107.50`, or `1,107.50 EUR` for another currency. */
export function money(amount: number, currency: string): string {
  const fixed = decimalInWords(Math.round(amount * 100));
  return currency === "USD" ? `$${fixed}` : `${fixed} ${currency}`;
}

/** A date as `Nov 26, 2026` (UTC, the dates the records keep); anything else as it is, never an error page. */
export function day(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? iso : shortDayInWords(iso);
}

const PAYMENT_STATUS: Record<string, string> = {
  pending: "Processing",
  completed: "Paid",
  failed: "Failed",
  cancelled: "Cancelled",
  returned: "Returned by your bank",
};

/** A transaction's status in words, refunds included (the record's status stays `completed`). */
export function paymentStatus(status: string, amount: number, refunded: number, currency: string): string {
  if (status === "completed" && refunded > 0) return refunded >= amount ? "Refunded" : `Paid, ${money(refunded, currency)} refunded`;
  return PAYMENT_STATUS[status] ?? status;
}

const PERIODS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year" };

export function perPeriod(interval: string): string {
  return PERIODS[interval] ?? interval;
}

const SUBSCRIPTION_STATUS: Record<string, string> = {
  incomplete: "Starting (first payment processing)",
  active: "Active",
  past_due: "Past due (a payment failed; it will be retried)",
  unpaid: "Unpaid (payments stopped)",
  cancelled: "Cancelled",
};

export function subscriptionStatus(status: string): string {
  return SUBSCRIPTION_STATUS[status] ?? status;
}

const REFUND_STATUS: Record<string, string> = {
  pending: "Waiting for the merchant",
  approved: "Approved by the merchant",
  rejected: "Declined by the merchant",
  processing: "Being sent to your bank",
  completed: "Refunded",
  failed: "Failed",
};

export function refundStatus(status: string): string {
  return REFUND_STATUS[status] ?? status;
}
