import { z } from "zod";

/**
 * Consumer notices (docs/decisions/0009-consumer-notices.md): what Payrail tells the consumer
 * about their money, by SMS to the verified phone and by email when the checkout has one.
 */
export const NoticeType = z.enum(["authorization_copy", "payment_receipt", "upcoming_charge", "payment_failed", "refund_update", "subscription_cancelled", "micro_deposits"]);
export type NoticeType = z.infer<typeof NoticeType>;
export const NoticeChannel = z.enum(["sms", "email"]);
export type NoticeChannel = z.infer<typeof NoticeChannel>;
export const NoticeStatus = z.enum(["queued", "sent", "failed"]);
export type NoticeStatus = z.infer<typeof NoticeStatus>;

/** `ntc_` + 32 lowercase hex. */
export const NoticeId = z.string().regex(/^ntc_[0-9a-f]{32}$/, "must be ntc_ and 32 lowercase hex");

/** A notice as the merchant sees it: never the consumer's whole phone or address. */
export const Notice = z.object({
  id: NoticeId.describe("The notice (`ntc_…`); one per cause and channel"),
  type: NoticeType.describe(
    "`authorization_copy`, `payment_receipt`, `upcoming_charge`, `payment_failed`, `refund_update`, `subscription_cancelled` or `micro_deposits` (two deposits were sent to validate the bank account)",
  ),
  channel: NoticeChannel.describe("`sms` (the consumer's verified phone) or `email` (the checkout's `customer.email`)"),
  to: z.string().describe("The recipient, masked (`+1•••••••0100`, `j•••@example.com`)"),
  checkout_id: z.string().describe("The checkout (`chk_…`) the notice is about"),
  transaction_uuid: z.string().nullable().describe("The transaction record (`sc-…`) it is about, or null (an authorization copy)"),
  status: NoticeStatus.describe("`queued` (not sent yet, or being retried), `sent` (the provider accepted it) or `failed` (refused, or its retries ran out)"),
  created_at: z.string().describe("When it was written (ISO 8601 UTC)"),
  sent_at: z.string().nullable().describe("When the provider accepted it (ISO 8601 UTC), or null"),
});
export type Notice = z.infer<typeof Notice>;

/** The sandbox's outbox: the same record plus what it says. */
export const SandboxNotice = Notice.extend({ body: z.string().describe("The text sent (the plain-text part of an email)") });
export type SandboxNotice = z.infer<typeof SandboxNotice>;

export const NoticeListQuery = z.object({
  checkout_id: z.string().min(1).max(64).optional().describe("Only the notices about this checkout (`chk_…`)"),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("At most this many (1–100, default 20)"),
  starting_after: NoticeId.optional().describe("The last notice of the previous page: the page after it"),
});
export type NoticeListQuery = z.infer<typeof NoticeListQuery>;

export const NoticeListResponse = z.object({
  data: z.array(Notice).describe("The notices, newest first"),
  has_more: z.boolean().describe("Whether more follow (ask again with `starting_after`)"),
});
export const SandboxNoticeListResponse = z.object({
  data: z.array(SandboxNotice).describe("The notices, newest first, with what each says"),
  has_more: z.boolean().describe("Whether more follow (ask again with `starting_after`)"),
});
