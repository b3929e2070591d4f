import { AppError } from "@payrail/contracts";
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

/** What a client may write around the digits: `+1 (415) 555-2671`, `(415) 555-2671`, `+44 20.7183.8750`. */
const PHONE_CHARACTERS = /^\+?[0-9 ().\-/]+$/;

/** DEFAULT_PHONE_COUNTRY when nothing is configured (docs/api-notes.md, Credentials). */
export const DEFAULT_PHONE_COUNTRY: CountryCode = "US";

/** DEFAULT_PHONE_COUNTRY as the library knows it; a country it has no numbering plan for stops the start. */
export function phoneCountry(code: string | undefined): CountryCode {
  const country = (code ?? DEFAULT_PHONE_COUNTRY).toUpperCase();
  if (!isSupportedCountry(country)) throw new Error(`DEFAULT_PHONE_COUNTRY: "${code}" is not a country with a known numbering plan (e.g. US, GB, DE)`);
  return country;
}

/**
 * Parses a phone number and returns it in E.164. A number with `+` and its country code is
 * read as such; one without is a number of `defaultCountry` (docs/api-notes.md, Credentials: "(415) 555-2671" is
 * `+14155552671` with the default US), so a consumer never has to know about `+1`.
 * "Possible" (right length for its country), not "valid" (a known allocated range), is the
 * test: the API notes' own example `+15551234567` lies in the fictional 555 range, which the library
 * calls invalid. In live mode the SMS provider still refuses numbers that do not exist, and
 * that refusal is the same 400. Extensions are refused: a text cannot reach one.
 */
export function normalisePhone(raw: string, defaultCountry: CountryCode = DEFAULT_PHONE_COUNTRY, param = "phone"): string {
  const trimmed = raw.trim();
  const parsed = PHONE_CHARACTERS.test(trimmed) ? parsePhoneNumberFromString(trimmed, defaultCountry) : undefined;
  if (!parsed || parsed.ext || !parsed.isPossible()) {
    throw new AppError("invalid_phone_number", `${param} must be a mobile phone number: +, country code and number (like +14155552671), or a number of ${defaultCountry} as usually written`, { param });
  }
  return parsed.number;
}

/**
 * A phone written in a URL path: a `+` is easily lost there (or arrives as `%2B`), so digits
 * alone are read as an international number.
 */
export function phoneFromPath(raw: string, param = "phone"): string {
  const trimmed = raw.trim();
  return normalisePhone(/^\d+$/.test(trimmed) ? `+${trimmed}` : trimmed, DEFAULT_PHONE_COUNTRY, param);
}

/** The country calling code of an E.164 number (`1` for +1 415…, `44` for +44 20…); null when the library knows none. */
export function callingCodeOf(e164: string): string | null {
  return parsePhoneNumberFromString(e164)?.countryCallingCode ?? null;
}
