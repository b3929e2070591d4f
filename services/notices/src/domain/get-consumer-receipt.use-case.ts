import { AppError, NoticeChannel, requireUser, type ConsumerReceipt, type Principal } from "@payrail/contracts";
import { isReceiptOf, toReceiptSummary } from "./consumer-receipt.ts";
import { noticeId, type NoticeDoc } from "./notice.entity.ts";
import type { NoticesPort } from "./ports/notices.port.ts";

/**
 * One of the consumer's receipts with what it said on each channel it went by (the other
 * channel's copy has the id its cause derives). Another consumer's, or any other notice, is
 * 404 as an unknown id is.
 */
export async function getConsumerReceipt(deps: { notices: Pick<NoticesPort, "find"> }, principal: Principal, receiptId: string): Promise<ConsumerReceipt> {
  const user = requireUser(principal);
  const doc = await deps.notices.find(receiptId);
  if (!isReceiptOf(doc, user)) throw new AppError("resource_missing", "There is no such receipt in your account.", { param: "receipt_id" });
  const others = await Promise.all(NoticeChannel.options.filter((c) => c !== doc.channel).map((c) => deps.notices.find(noticeId(doc.eventId, c))));
  const copies = [doc, ...others.filter((o): o is NoticeDoc => o !== null && o.userId === user.userId)];
  return {
    ...toReceiptSummary(doc),
    copies: copies.map((c) => ({ channel: c.channel, to: c.to, status: c.status, sent_at: c.sentAt, body: c.body })),
  };
}
