import { z } from "zod";
import { MerchantProfile } from "./merchant-profile.schema.ts";

/** A funding source at the transfer provider, as the provider names it: an absolute URL. */
const FundingSourceUrl = z.string().url().max(2048);

/** Admin routes (docs/api-notes.md, Credentials), behind `x-admin-token`. */
export const CreateMerchantBody = z.object({
  name: z.string().trim().min(1).max(255),
  destination_funding_source: FundingSourceUrl.optional(),
  /** The merchant's bank at the transfer provider, where payouts go (live mode; the sandbox simulates one). */
  payout_funding_source: FundingSourceUrl.optional(),
});

/** PATCH /api/admin/merchants/{id}: the funding sources sent change, `null` clears one; the rest stay. */
export const MerchantFundingSourcesBody = z.object({
  destination_funding_source: FundingSourceUrl.nullable().optional(),
  payout_funding_source: FundingSourceUrl.nullable().optional(),
});
export type MerchantFundingSourcesBody = z.infer<typeof MerchantFundingSourcesBody>;

export const MerchantView = z
  .object({
    id: z.string(),
    name: z.string(),
    destination_funding_source: z.string().nullable(),
    payout_funding_source: z.string().nullable(),
    created_at: z.string(),
  })
  .extend(MerchantProfile.shape);
export type MerchantView = z.infer<typeof MerchantView>;

export const IssuedApiKey = z.object({ api_key: z.string(), key_prefix: z.string(), livemode: z.boolean() });

export const CreateMerchantResponse = z.object({ merchant: MerchantView, api_key: z.string(), key_prefix: z.string() });

/** Admin lists: how many merchants, newest first (the CLI's `merchant list --limit`). */
export const MerchantListQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
export const MerchantList = z.object({ data: z.array(MerchantView), has_more: z.boolean() });
export const ApiKeyList = z.object({
  data: z.array(z.object({ key_prefix: z.string(), livemode: z.boolean(), created_at: z.string(), revoked_at: z.string().nullable() })),
});

export const MerchantIdParam = z.object({ id: z.string().regex(/^mer_[0-9a-f]{32}$/, "must be a merchant id") });
export const RevokeKeyParams = z.object({
  id: z.string().regex(/^mer_[0-9a-f]{32}$/, "must be a merchant id"),
  key_prefix: z.string().min(1).max(64),
});

/** Registers a user (by verified phone) as an operator of a merchant: they may decide and pay out its refunds. */
export const AddOperatorBody = z.object({ phone: z.string().min(1).max(64) });
export const OperatorView = z.object({
  id: z.string().describe("`opr_…`: how the audit log names this operator (never by the phone)"),
  merchant_id: z.string(),
  phone: z.string(),
});
export const OperatorList = z.object({ data: z.array(OperatorView.extend({ created_at: z.string() })) });
/** The phone in a path: E.164 with the `+` as `%2B`, or digits alone. */
export const OperatorParams = MerchantIdParam.extend({ phone: z.string().min(1).max(64) });
export const RemovedOperator = OperatorView.extend({ removed: z.literal(true) });
