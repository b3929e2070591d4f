import { z } from "zod";

/**
 * Mandates (API.md §12): the consumer's authorization of the debits, as NACHA's WEB entries
 * require it to be recorded. `merchant_attested`: a flow that showed no Payrail text (the
 * seed's clients); the merchant vouches for an authorization it holds itself.
 */
export const MandateType = z.enum(["one_off", "recurring", "merchant_attested"]);
export type MandateType = z.infer<typeof MandateType>;

export const MandateStatus = z.enum(["active", "revoked"]);

/** `mdt_` + 32 lowercase hex. */
export const MandateId = z.string().regex(/^mdt_[0-9a-f]{32}$/, "must be mdt_ and 32 lowercase hex");

/** A mandate as the API shows it. Text, client and account are null on a `merchant_attested` one where unknown. */
export const Mandate = z.object({
  id: MandateId,
  checkout_id: z.string(),
  type: MandateType,
  status: MandateStatus,
  text_version: z.string().nullable(),
  /** SHA-256 (hex) of the exact words shown, as rendered for this checkout when accepted. */
  text_sha256: z.string().nullable(),
  accepted_at: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  bank_account: z.object({ institution: z.string().nullable(), mask: z.string().nullable() }),
  /** Kept 2 years after the later of these (never swept). */
  last_debit_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type Mandate = z.infer<typeof Mandate>;

/** What a consumer page shows before the debit, and the version it then accepts. */
export const MandateText = z.object({ text_version: z.string(), text: z.string() });
export type MandateText = z.infer<typeof MandateText>;

/** Sent with Exchange Public Token when the consumer accepted the text of `text_version`. */
export const MandateAcceptance = z.object({ text_version: z.string().min(1).max(64) });

export const MandateIdParam = z.object({ mandate_id: z.string().min(1).max(64) });
