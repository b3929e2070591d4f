import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";

/**
 * RFC 4180 text (csv-stringify): CRLF after every record, and a field quoted when it holds a
 * comma, a quote (doubled inside) or a line break of either kind, which the library would
 * otherwise leave bare under a CRLF record delimiter.
 */
export function csvRecords(records: readonly (readonly (string | null)[])[]): string {
  return stringify(records as (string | null)[][], { record_delimiter: "windows", quoted_match: /[\r\n]/ });
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
