/** Query parameters whose values are credentials or codes. */
const SECRET_PARAMS = /^(.*token.*|.*key.*|code|verification_code|secret|password|signature)$/i;
/** A phone number in a path or query: E.164 (`+` or `%2B`, 8–15 digits) or 10+ digits alone. */
const PHONE = /(?<=^|[/=])(\+|%2B)?\d{8,15}(?=$|[/?&#])/gi;

/**
 * A URL as it may be logged: phone numbers, credentials in the query, and a userinfo
 * password blanked. Sandbox routes carry phones in the path (`/verification_codes/+1415…`),
 * clients put tokens in queries, and broker URLs carry passwords; none of it belongs in a
 * log line. Works on absolute URLs and on paths.
 */
export function redactUrl(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  let url: URL;
  try {
    url = new URL(value, "http://x");
  } catch {
    return "[unparsable url]";
  }
  if (url.password) url.password = "redacted";
  for (const key of [...url.searchParams.keys()]) if (SECRET_PARAMS.test(key)) url.searchParams.set(key, "redacted");
  url.pathname = url.pathname.replace(PHONE, "[phone]");
  const search = url.search.replace(PHONE, "[phone]");
  const userinfo = url.username ? `${url.username}${url.password ? `:${url.password}` : ""}@` : "";
  const text = absolute ? `${url.protocol}//${userinfo}${url.host}` : "";
  return `${text}${url.pathname}${search}`;
}
