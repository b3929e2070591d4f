import { AppError } from "@payrail/contracts";
import { parsePhoneNumberFromString } from "libphonenumber-js";

/** What a client may write around the digits: `+1 (415) 555-2671`, `+44 20.7183.8750`. */
const PHONE_CHARACTERS = /^\+[0-9 ().\-/]+$/;

/**
 * Parses an international number (`+` and the country code, API.md §5) and returns it in
 * E.164. "Possible" (right length for its country), not "valid" (a known allocated range), is
 * the test: API.md's own example `+15551234567` lies in the fictional 555 range, which the
 * library calls invalid. In live mode the SMS provider still refuses numbers that do not exist,
 * and that refusal is the same 400. Extensions are refused: a text cannot reach one.
 */
export function normalisePhone(raw: string, param = "phone"): string {
  const trimmed = raw.trim();
  const parsed = PHONE_CHARACTERS.test(trimmed) ? parsePhoneNumberFromString(trimmed) : undefined;
  if (!parsed || parsed.ext || !parsed.isPossible()) {
    throw new AppError("invalid_phone_number", `${param} must be a phone number in international format, like +14155552671`, { param });
  }
  return parsed.number;
}

/**
 * A phone written in a URL path: a `+` is easily lost there (or arrives as `%2B`), so digits
 * alone are read as an international number.
 */
export function phoneFromPath(raw: string, param = "phone"): string {
  const trimmed = raw.trim();
  return normalisePhone(/^\d+$/.test(trimmed) ? `+${trimmed}` : trimmed, param);
}
