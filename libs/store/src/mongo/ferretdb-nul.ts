/**
 * FerretDB on PostgreSQL keeps documents as jsonb, which cannot hold U+0000: any document,
 * filter or update with a NUL in a string fails with "unsupported Unicode escape sequence"
 * (SQLSTATE 22P05), where MongoDB (and FerretDB on SQLite) store and match it like any other
 * character. So on FerretDB the adapter escapes strings on the way in and unescapes them on the
 * way out: U+0000 becomes U+E000 "0" and U+E000 (a private-use character) becomes U+E000 U+E000.
 * Strings without either character, which is nearly all of them, pass unchanged, and so does
 * the object holding them (no copy). Equality and `$in` keep their meaning; only the order of
 * strings holding those two characters differs from MongoDB's.
 */
export interface StringCodec {
  encode<T>(value: T): T;
  decode<T>(value: T): T;
}

const NUL = "\u0000";
const ESC = "\uE000";
const ESCAPED = /\uE000(\uE000|0)/g;

function escape(s: string): string {
  return s.includes(NUL) || s.includes(ESC) ? s.replaceAll(ESC, ESC + ESC).replaceAll(NUL, `${ESC}0`) : s;
}

function unescape(s: string): string {
  return s.includes(ESC) ? s.replace(ESCAPED, (_, c: string) => (c === "0" ? NUL : ESC)) : s;
}

export const identityCodec: StringCodec = { encode: (v) => v, decode: (v) => v };

export const nulCodec: StringCodec = {
  encode: (value) => mapStrings(value, escape),
  decode: (value) => mapStrings(value, unescape),
};

/** Applies `f` to every string in a JSON-like value; returns the same object when nothing changed. */
function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === "string") return f(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const mapped = mapStrings(item, f);
      if (mapped !== item) (out ??= [...value])[i] = mapped;
    });
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(record)) {
      const mapped = mapStrings(item, f);
      if (mapped !== item) (out ??= { ...record })[key] = mapped;
    }
    return (out ?? value) as T;
  }
  return value;
}
