import { z } from "zod";

/**
 * What a checkout's debit pays for. NACHA describes a consumer's online purchase of goods as
 * `PURCHASE` (docs/decisions/0008-entry-descriptions.md); services and anything else carry the
 * merchant's statement descriptor.
 */
export const TransactionPurpose = z.enum(["goods", "services", "other"]);
export type TransactionPurpose = z.infer<typeof TransactionPurpose>;

/**
 * The merchant's company entry description, as the consumer's bank statement shows it: sent in
 * any case, kept upper case; at most 10 characters of letters, digits, space and `& * , - . /`
 * (what every ODFI accepts of NACHA's alphanumeric set), with at least one letter.
 */
export const StatementDescriptor = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(
    z
      .string()
      .min(1)
      .max(10)
      .regex(/^[A-Z0-9&*,\-./ ]+$/, "may hold only letters, digits, spaces and & * , - . /")
      .regex(/[A-Z]/, "must contain a letter")
      .refine((v) => v.trim() === v, "must not begin or end with a space"),
  );

const SupportPhone = z.string().regex(/^\+[1-9]\d{7,14}$/, "must be E.164: + and 8 to 15 digits");
const SupportEmail = z.email().max(254);

/** PATCH /api/merchants/profile: the fields sent change, `null` clears one; the rest stay. */
export const MerchantProfileBody = z.object({
  support_email: SupportEmail.nullable().optional(),
  support_phone: SupportPhone.nullable().optional(),
  statement_descriptor: StatementDescriptor.nullable().optional(),
  default_transaction_purpose: TransactionPurpose.optional(),
});
export type MerchantProfileBody = z.infer<typeof MerchantProfileBody>;

/** What consumers are told of the merchant, and how its debits are described. */
export const MerchantProfile = z.object({
  support_email: z.string().nullable(),
  support_phone: z.string().nullable(),
  /** null: the debits are described by a descriptor derived from the merchant's name. */
  statement_descriptor: z.string().nullable(),
  default_transaction_purpose: TransactionPurpose,
});
export type MerchantProfile = z.infer<typeof MerchantProfile>;
