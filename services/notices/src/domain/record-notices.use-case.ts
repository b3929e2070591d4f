import { maskEmail, type AnyDomainEvent, type NoticeChannel } from "@payrail/contracts";
import { prefixedHexId } from "@payrail/runtime";
import { renderNotice, safeMerchant } from "../templates/render-notice.ts";
import { noticeContent } from "../templates/notice-content.ts";
import { amountChanges, noticeCause, type NoticeCause } from "./notice-cause.ts";
import { noticeId, type NoticeDoc } from "./notice.entity.ts";
import type { NoticesDeps } from "./notices.deps.ts";
import { signUnsubscribeToken, type OptOutKey } from "./unsubscribe-token.ts";

/**
 * Receipts and reminders of unchanged renewals may be stopped by the consumer. Not the
 * authorization copy (Reg E 1005.10(b)), the 10-day notice of a changed amount (1005.10(d)),
 * failures, refunds or a cancellation: they tell of money moving otherwise than agreed.
 */
export function isOptional(cause: Pick<NoticeCause, "type" | "facts">): boolean {
  if (cause.type === "payment_receipt") return true;
  if (cause.type !== "upcoming_charge") return false;
  return !amountChanges(cause.facts);
}

/** Thrown when the consumer of a checkout is not known yet: the transport tries the event again. */
export class ConsumerNotKnownYet extends Error {}

/**
 * One event's notices: what it causes (nothing for most), then one notice per channel the
 * consumer can be reached on (SMS to the verified phone, email when the checkout has one),
 * each written once under an id derived from the event and the channel, so a redelivered event
 * writes nothing new. The consumer's contacts are asked of their owners (identity, checkout)
 * and never come from the event. A failure throws, and the transport tries the event again.
 */
export async function recordNotices(deps: NoticesDeps, event: AnyDomainEvent): Promise<void> {
  if (event.type === "payment_method.saved") {
    const { checkout_id: checkoutId, user_id: userId } = event.data.object;
    if (userId) await deps.consumers.remember(checkoutId, userId);
    return;
  }
  const cause = noticeCause(event);
  if (!cause) return;
  const mandate = cause.mandateId ? await deps.contacts.mandateCopy(cause.mandateId) : null;
  const named = cause.userId ?? mandate?.userId ?? null;
  const userId = named ?? (await deps.consumers.userOf(cause.checkoutId));
  if (!userId) throw new ConsumerNotKnownYet(`the consumer of ${cause.checkoutId} is not known yet`);
  // A consumer read from the map is there already; one the event or the mandate named may not be.
  if (named) await deps.consumers.remember(cause.checkoutId, userId);
  const [{ merchant, phoneMasked }, checkout] = await Promise.all([deps.contacts.noticeContacts(cause.merchantId, userId), deps.contacts.recipient(cause.checkoutId)]);
  const safe = safeMerchant(merchant);
  const content = noticeContent({ type: cause.type, merchant: safe.name, checkout, facts: cause.facts, mandateId: cause.mandateId, mandate, portalUrl: deps.portalUrl });
  const channels: { channel: NoticeChannel; address: string; to: string }[] = [];
  if (phoneMasked) channels.push({ channel: "sms", address: userId, to: phoneMasked });
  if (checkout.email && deps.email) channels.push({ channel: "email", address: checkout.email, to: maskEmail(checkout.email) });
  const optional = isOptional(cause);
  for (const [i, { channel, address, to }] of channels.entries()) {
    const id = noticeId(cause.eventId, channel);
    // SMS is stopped by replying STOP, which the SMS provider honours: only email carries a link.
    const link = optional && channel === "email" ? unsubscribeUrl(deps, { merchantId: cause.merchantId, userId, channel }) : null;
    const rendered = renderNotice(channel, content, safe, link ?? undefined);
    // Written already claimed by this process, which sends it at once (deps.sendClaimed).
    const leaseUntil = new Date(deps.now().getTime() + deps.policy.leaseMs);
    const doc = noticeDoc(deps, cause, { id, channel, address, to, optional, userId, unsubscribeUrl: link, leaseUntil, ...rendered });
    // The portal's copy of this cause is the first channel's; it shows the merchant as named here.
    if (await deps.notices.insert({ ...doc, merchant: safe, portalCopy: i === 0 })) deps.sendClaimed(doc, leaseUntil);
  }
}

/** Where the consumer stops the merchant's optional notices on a channel (`List-Unsubscribe`, and the email's footer). */
export function unsubscribeUrl(deps: Pick<NoticesDeps, "unsubscribeUrl" | "unsubscribeKey">, who: OptOutKey): string {
  return `${deps.unsubscribeUrl}${signUnsubscribeToken(deps.unsubscribeKey, who)}`;
}

function noticeDoc(
  deps: NoticesDeps,
  cause: NoticeCause,
  n: {
    id: string;
    channel: NoticeChannel;
    address: string;
    to: string;
    optional: boolean;
    userId: string;
    unsubscribeUrl: string | null;
    leaseUntil: Date;
    subject: string;
    body: string;
    html: string | null;
  },
): NoticeDoc {
  const now = deps.now().toISOString();
  return {
    _id: n.id,
    merchantId: cause.merchantId,
    livemode: cause.livemode,
    eventId: cause.eventId,
    type: cause.type,
    channel: n.channel,
    to: n.to,
    address: n.address,
    checkoutId: cause.checkoutId,
    transactionUuid: cause.transactionUuid,
    subject: n.subject,
    body: n.body,
    html: n.html,
    optional: n.optional,
    userId: n.userId,
    unsubscribeUrl: n.unsubscribeUrl,
    status: "queued",
    attempts: 0,
    dueAt: n.leaseUntil.toISOString(),
    leaseId: prefixedHexId("lease_"),
    lastError: null,
    providerMessageId: null,
    createdAt: now,
    sentAt: null,
  };
}
