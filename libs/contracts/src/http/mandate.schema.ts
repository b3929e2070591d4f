import { z } from "zod";
import { AccountValidation } from "./micro-deposits.schema.ts";

/**
 * Mandates (docs/api-notes.md, Mandates): the consumer's authorization of the debits, as NACHA's WEB entries
 * require it to be recorded. `merchant_attested`: a flow that showed no Payrail text (the
 * seed's clients); the merchant vouches for an authorization it holds itself.
 */
export const MandateType = z.enum(["one_off", "recurring", "merchant_attested"]);
export type MandateType = z.infer<typeof MandateType>;

export const MandateStatus = z.enum(["active", "revoked"]);

/** `mdt_` + 32 lowercase hex. */
export const MandateId = z.string().regex(/^mdt_[0-9a-f]{32}$/, "must be mdt_ and 32 lowercase hex");

const TEXT_VERSION = "The version of the authorization text's wording (e.g. `2026-11-25.1`)";

/** A mandate as the API shows it. Text, client and account are null on a `merchant_attested` one where unknown. */
export const Mandate = z.object({
  id: MandateId.describe("The mandate (`mdt_…`)"),
  checkout_id: z.string().describe("The checkout (`chk_…`) whose debits it authorizes"),
  type: MandateType.describe("`one_off`, `recurring` (a subscription), or `merchant_attested` (no Payrail text was accepted; the merchant vouches for its own)"),
  status: MandateStatus.describe("`active`, or `revoked` (no further debit is made)"),
  text_version: z.string().nullable().describe(`${TEXT_VERSION}; null when attested`),
  text_sha256: z.string().nullable().describe("SHA-256 (hex) of the exact words shown for this checkout when accepted"),
  accepted_at: z.string().describe("When it was accepted (or attested) (ISO 8601 UTC)"),
  ip_address: z.string().nullable().describe("The consumer's client address when accepting"),
  user_agent: z.string().nullable().describe("The consumer's browser (User-Agent) when accepting"),
  bank_account: z
    .object({
      institution: z.string().nullable().describe("The bank's name"),
      mask: z.string().nullable().describe("The account number's last digits"),
    })
    .describe("The bank account it authorizes debits from"),
  last_debit_at: z.string().nullable().describe("When the last debit was made on it (ISO 8601 UTC), or null"),
  revoked_at: z.string().nullable().describe("When it was revoked (ISO 8601 UTC), or null"),
  validation: AccountValidation.nullable().describe(
    "How the bank account was validated before its first debit (NACHA's WEB rule): `bank_data_provider` or `micro_deposits`, with `validated_at`; null while it is not (no debit is made)",
  ),
});
export type Mandate = z.infer<typeof Mandate>;

/** What a consumer page shows before the debit, and the version it then accepts. */
export const MandateText = z.object({
  text_version: z.string().describe(TEXT_VERSION),
  text: z.string().describe("The authorization text to show before the consumer confirms the payment"),
});
export type MandateText = z.infer<typeof MandateText>;

/** Sent with Exchange Public Token when the consumer accepted the text of `text_version`. */
export const MandateAcceptance = z
  .object({ text_version: z.string().min(1).max(64).describe("The version of the mandate text the consumer was shown and accepted") })
  .describe("The consumer's acceptance of the mandate text (from `mandate_text`); absent: the merchant attests the authorization");

export const MandateIdParam = z.object({ mandate_id: z.string().min(1).max(64) });
