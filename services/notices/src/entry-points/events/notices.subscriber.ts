import type { EventTransport, SubscribeOptions } from "@payrail/messaging";
import { NOTICE_EVENTS } from "../../domain/notice-cause.ts";
import type { NoticesDeps } from "../../domain/notices.deps.ts";
import { recordNotices } from "../../domain/record-notices.use-case.ts";

/**
 * The notices service's event entry point (queue `notices.events`): payments' and refunds'
 * events that cause a notice, and `payment_method.saved`, which names a checkout's consumer.
 * Writing a notice is an insert under an id derived from the event, so repeated and replayed
 * events write nothing new; a failure throws, and the transport tries the event again.
 */
export function subscribeNoticeEvents(transport: EventTransport, deps: NoticesDeps, options?: SubscribeOptions): Promise<void> {
  return transport.subscribe("notices", NOTICE_EVENTS, (event) => recordNotices(deps, event), options);
}
