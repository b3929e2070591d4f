const DAY_MS = 86_400_000;

/**
 * `days` banking days after `from` (same time of day): Saturdays and Sundays are skipped, so a
 * debit settled on Friday with 2 days is available on Tuesday. Federal holidays are not known
 * here (docs/decisions/0042-merchant-books.md): a holiday delays the bank, not the balance.
 */
export function addBankingDays(from: Date, days: number): Date {
  let at = from.getTime();
  let left = days;
  while (left > 0) {
    at += DAY_MS;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return new Date(at);
}
