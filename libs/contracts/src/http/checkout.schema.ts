import { z } from "zod";
import { DateBound } from "./books.schema.ts";
import { AmountFilters } from "./amount-filters.schema.ts";
import { Metadata } from "./metadata.schema.ts";
import { TransactionPurpose } from "./merchant-profile.schema.ts";
import { DecimalAmount, toCents } from "./money.schema.ts";

/** Free text of the checkout object: 1–255 characters (docs/api-notes.md, The checkout). */
const Text = z.string().min(1).max(255);
const HttpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");
const E164 = z.string().regex(/^\+[1-9]\d{7,14}$/, "must be E.164: + and 8 to 15 digits");
/** ISO 8601 date-time with a zone, as clients send it; stored in the form sent. */
const IsoDateTime = z.iso.datetime({ offset: true });
/**
 * An optional field that merchant backends send as `""` or `null` when it does not apply
 * (issue 14): accepted, stored and echoed as sent, never validated as a value.
 */
const blankable = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), z.null(), schema]).optional();

export const PLAN_TYPES = ["daily", "weekly", "monthly", "quarterly", "yearly"] as const;

export const Amounts = z
  .object({
    total: DecimalAmount,
    subtotal: DecimalAmount,
    tax: DecimalAmount,
    shipping: DecimalAmount,
    discount_total: DecimalAmount.nullable().optional(),
    currency: z.string().regex(/^[A-Z]{3}$/, "must be three uppercase letters"),
  })
  .superRefine((a, ctx) => {
    if (toCents(a.total) === 0) {
      ctx.addIssue({ code: "custom", path: ["total"], message: "must be greater than 0", params: { code: "amount_invalid" } });
    }
    if (/^[A-Z]{3}$/.test(a.currency) && a.currency !== "USD") {
      ctx.addIssue({
        code: "custom",
        path: ["currency"],
        message: "only USD can be transferred",
        params: { code: "unsupported_currency" },
      });
    }
  });
export type Amounts = z.infer<typeof Amounts>;

export const Address = z.object({
  name: Text,
  address_1: Text,
  address_2: blankable(Text),
  city: Text,
  area: blankable(Text),
  zone_code: Text,
  country_code: z.string().regex(/^[A-Za-z]{2}$/, "must be two letters"),
  postal_code: Text,
  phone_number: blankable(E164),
});
export type Address = z.infer<typeof Address>;

export const Platform = z.object({
  platform_type: blankable(Text),
  platform_version: blankable(Text),
});

export const Item = z.object({
  name: Text,
  sku: Text,
  price: z
    .object({ amount: z.number().int().min(0).max(9_999_999_999), currency: z.string().regex(/^[A-Z]{3}$/) })
    .optional(),
  quantity: z.number().int().positive().max(1_000_000),
  category: z.array(z.array(Text).max(20)).max(20).optional(),
  image: HttpUrl,
  checkout_object: z.string().max(255).optional(),
});

/** The body of Create Checkout: the checkout object itself (spec "Resources", docs/api-notes.md, The checkout). */
export const CreateCheckoutBody = z
  .object({
    amounts: Amounts,
    billing: Address,
    shipping: Address,
    platform: Platform,
    items: z.array(Item).max(100).optional(),
    created_at: IsoDateTime.optional(),
    updated_at: IsoDateTime.optional(),
    shipping_method: blankable(Text),
    merchant_checkout_id: Text,
    merchant_user_id: Text,
    redirect_cancel_url: HttpUrl,
    redirect_confirm_url: HttpUrl,
    plan_type: blankable(
      z
        .string()
        .transform((v) => v.toLowerCase())
        .pipe(z.enum(PLAN_TYPES)),
    ),
    is_subscription: z.boolean(),
    user_cohorts: z.array(z.string().max(255)).max(100),
    chekout_object: z.string().max(255).optional(),
    subscription_status: z.string().max(255).optional(),
    metadata: Metadata.optional(),
    /** What the debit pays for (NACHA's entry description): default the merchant profile's `default_transaction_purpose`. */
    transaction_purpose: TransactionPurpose.optional(),
    /** The consumer, as far as the merchant knows them: `email` gets the consumer notices by email too (docs/decisions/0009-consumer-notices.md). */
    customer: z
      .object({ email: z.email().max(254).optional().describe("The consumer's email: notices go there as well as by SMS (never put into events)") })
      .optional()
      .describe("The consumer, as far as the merchant knows them"),
  })
  .superRefine((c, ctx) => {
    if (c.is_subscription && !c.plan_type) {
      ctx.addIssue({
        code: "custom",
        path: ["plan_type"],
        message: `is required when is_subscription is true (one of ${PLAN_TYPES.join(", ")})`,
        params: { code: "parameter_missing" },
      });
    }
  });
export type CreateCheckoutBody = z.infer<typeof CreateCheckoutBody>;

export const CheckoutStatus = z.enum(["open", "payment_method_saved", "transfer_pending", "paid", "failed", "refunded", "returned"]);
export type CheckoutStatus = z.infer<typeof CheckoutStatus>;

export const TransferSummary = z.object({
  transaction_uuid: z.string(),
  processor_transaction_id: z.string(),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  initiated_at: z.string(),
});
export type TransferSummary = z.infer<typeof TransferSummary>;

/** Get Checkout: every key as sent, plus the server's fields (docs/api-notes.md, The checkout). */
export const CheckoutView = z
  .object({
    id: z.string(),
    status: CheckoutStatus,
    subscription_status: z.string(),
    transfer: TransferSummary.nullable(),
    /** What refunds have sent back of the checkout's payments (completed refund transfers), in major units. */
    amount_refunded: z.number(),
    /** Subscriptions (docs/api-notes.md, Subscriptions and renewals): the paid period and the next charge; null before the first charge settles. */
    current_period_start: z.string().nullable().optional(),
    current_period_end: z.string().nullable().optional(),
    next_charge_at: z.string().nullable().optional(),
    /** The debit authorization (docs/api-notes.md, Mandates) once payments recorded it; null before. */
    mandate_id: z.string().nullable().optional(),
    /** The merchant's own key–value pairs, when it sent some. */
    metadata: z.record(z.string(), z.string()).optional(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .catchall(z.unknown());
export type CheckoutView = z.infer<typeof CheckoutView>;

export const CreateCheckoutResponse = z.object({ id: z.string() });

export const ListCheckoutsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.string().regex(/^chk_[0-9a-f]{32}$/, "must be a checkout id").optional(),
  /** Only the checkout with this merchant_checkout_id (docs/api-notes.md, The checkout): at most one per merchant. */
  merchant_checkout_id: Text.optional(),
  /** Only checkouts in this status (each status has its own index: pages cost the same as unfiltered ones). */
  status: CheckoutStatus.optional(),
  /** `true`: only subscriptions; `false`: only one-off payments. */
  is_subscription: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean()).optional(),
  from: DateBound.optional().describe("Only checkouts created at or after this (a date or an ISO 8601 time); with `from` or `to` the list is ordered by `created_at`"),
  to: DateBound.optional().describe("Only checkouts created before this (a date or an ISO 8601 time)"),
  ...AmountFilters.shape,
});
export const ListCheckoutsResponse = z.object({ data: z.array(CheckoutView), has_more: z.boolean() });

export const CheckoutIdParam = z.object({ checkout_id: z.string().min(1).max(64) });

export const MerchantLinkTokenResponse = z.object({
  link_token: z.string(),
  checkout_id: z.string(),
  expiration: z.string(),
});
