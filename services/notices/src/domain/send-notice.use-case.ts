import { nextRetryDelayMs, type LeaseHeartbeat } from "@payrail/runtime";
import type { NoticeDoc } from "./notice.entity.ts";
import type { NoticesDeps } from "./notices.deps.ts";
import type { SendOutcome } from "./ports/senders.port.ts";

/**
 * One attempt of a notice this worker claimed (`leaseId`): send it on its channel, then mark it
 * `sent` (one conditional write on the lease, while still queued), or schedule its next try, or
 * mark it `failed` when the provider refused it for good (a bounce) or the retries ran out.
 * `lease.check()` comes before the send and before the write: a worker that lost its claim
 * stops there, so two workers never both send one notice while each holds the claim. An
 * optional notice to a consumer who unsubscribed from the merchant on its channel is not sent:
 * it ends `failed` with the reason `unsubscribed` (counted as `suppressed`, not as a failure).
 */
export async function attemptNotice(deps: NoticesDeps, notice: NoticeDoc, leaseId: string, lease: Pick<LeaseHeartbeat, "check">): Promise<void> {
  lease.check();
  if (await unsubscribed(deps, notice)) {
    const at = deps.now().toISOString();
    await deps.notices.finish(notice._id, leaseId, { status: "failed", attempts: notice.attempts, dueAt: at, lastError: "unsubscribed", providerMessageId: null, sentAt: null });
    deps.stats.count("suppressed");
    return;
  }
  const outcome = await send(deps, notice);
  const attempts = notice.attempts + 1;
  const end = deps.now();
  lease.check();
  if (outcome.ok) {
    await deps.notices.finish(notice._id, leaseId, { status: "sent", attempts, dueAt: end.toISOString(), lastError: null, providerMessageId: outcome.providerMessageId, sentAt: end.toISOString() });
    deps.stats.count("sent");
    return;
  }
  const delay = outcome.permanent ? null : nextRetryDelayMs(deps.policy.retryScheduleMs, attempts);
  const status = delay === null ? "failed" : "queued";
  const dueAt = new Date(end.getTime() + (delay ?? 0)).toISOString();
  await deps.notices.finish(notice._id, leaseId, { status, attempts, dueAt, lastError: outcome.error.slice(0, 500), providerMessageId: null, sentAt: null });
  deps.stats.count(status === "failed" ? "failed" : "retried");
  const log = { noticeId: notice._id, channel: notice.channel, attempts, error: outcome.error };
  if (status === "failed") deps.logger.warn(log, "consumer notice failed");
  else deps.logger.info({ ...log, dueAt }, "consumer notice not sent; retrying");
}

function unsubscribed(deps: NoticesDeps, notice: NoticeDoc): Promise<boolean> {
  if (!notice.optional || !notice.userId) return Promise.resolve(false);
  return deps.optOuts.has({ merchantId: notice.merchantId, userId: notice.userId, channel: notice.channel });
}

async function send(deps: NoticesDeps, notice: NoticeDoc): Promise<SendOutcome> {
  try {
    if (notice.channel === "sms") return await deps.sms.send(notice.address, notice.body);
    if (!deps.email) return { ok: false, permanent: true, error: "no email channel (SMTP_URL is not set)" };
    return await deps.email.send({
      to: notice.address,
      subject: notice.subject,
      text: notice.body,
      html: notice.html ?? "",
      noticeId: notice._id,
      unsubscribeUrl: notice.unsubscribeUrl ?? undefined,
    });
  } catch (err) {
    // An adapter's unexpected throw (the service it asks is away) is a failure that may pass.
    return { ok: false, permanent: false, error: err instanceof Error ? err.message : String(err) };
  }
}
