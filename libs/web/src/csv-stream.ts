import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";

/** A cell a spreadsheet would run as a formula: it begins with =, +, -, @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A signed decimal amount ("-12.50"): data, not a formula, and kept as it is. */
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A text cell made inert for spreadsheets: free text (a consumer's refund reason, a merchant's
 * own ids) that begins like a formula gets a leading apostrophe, as OWASP's CSV-injection advice
 * says, so a finance team opening the export runs nothing a consumer typed.
 */
export function inertCell(value: string | null): string | null {
  return value !== null && FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 text (csv-stringify): CRLF after every record, and a field quoted when it holds a
 * comma, a quote (doubled inside) or a line break of either kind, which the library would
 * otherwise leave bare under a CRLF record delimiter. Every cell goes through `inertCell`.
 */
export function csvRecords(records: readonly (readonly (string | null)[])[]): string {
  return stringify(
    records.map((record) => record.map(inertCell)),
    { record_delimiter: "windows", quoted_match: /[\r\n]/ },
  );
}

/**
 * A CSV body streamed page by page: the header row, then each page's rows as the client reads
 * them, so memory holds one page whatever the export's length. `first` is fetched before the
 * reply starts (a bad filter is still a 4xx with the error body); `next` answers the page after
 * the given one, or null at the end.
 */
export function csvStream<P>(header: readonly string[], first: P, rowsOf: (page: P) => (string | null)[][], next: (page: P) => Promise<P | null>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield csvRecords([header as string[]]);
    let page: P | null = first;
    while (page !== null) {
      const rows = rowsOf(page);
      if (rows.length > 0) yield csvRecords(rows);
      page = await next(page);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}
