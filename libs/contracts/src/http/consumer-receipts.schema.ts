import { z } from "zod";
import { NoticeChannel, NoticeId, NoticeStatus } from "./notices.schema.ts";

/*
 * The consumer portal's receipts (docs/decisions/0009-consumer-notices.md): the `payment_receipt`
 * notices sent to the signed-in consumer, across the merchants they paid. Portal only (RPC): a
 * consumer reads them on the portal's pages, never through the API.
 */

/** The merchant as the receipt named it when it was sent. */
export const ReceiptMerchant = z.object({
  name: z.string(),
  support_email: z.string().nullable(),
  support_phone: z.string().nullable(),
});

/** One receipt in the list: one per settled debit, whatever the channels it went by. */
export const ConsumerReceiptSummary = z.object({
  /** The receipt's notice (`ntc_…`): the one the portal shows for its cause. */
  id: NoticeId,
  subject: z.string(),
  merchant: ReceiptMerchant,
  transaction_uuid: z.string().nullable(),
  created_at: z.string(),
});
export type ConsumerReceiptSummary = z.infer<typeof ConsumerReceiptSummary>;

/** What was sent on one channel: where to (masked), whether it went, and its words. */
export const ReceiptCopy = z.object({
  channel: NoticeChannel,
  to: z.string(),
  status: NoticeStatus,
  sent_at: z.string().nullable(),
  body: z.string(),
});

export const ConsumerReceipt = ConsumerReceiptSummary.extend({ copies: z.array(ReceiptCopy) });
export type ConsumerReceipt = z.infer<typeof ConsumerReceipt>;

export const ConsumerReceiptListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: NoticeId.optional(),
});
export type ConsumerReceiptListQuery = z.infer<typeof ConsumerReceiptListQuery>;

export const ConsumerReceiptList = z.object({ data: z.array(ConsumerReceiptSummary), has_more: z.boolean() });
