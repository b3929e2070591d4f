import type { Logger } from "@payrail/runtime";
import type { NoticeStats } from "./notice-stats.ts";
import type { NoticeDoc } from "./notice.entity.ts";
import type { ConsumersPort } from "./ports/consumers.port.ts";
import type { ContactsPort } from "./ports/contacts.port.ts";
import type { NoticesPort } from "./ports/notices.port.ts";
import type { OptOutsPort } from "./ports/opt-outs.port.ts";
import type { EmailPort, SmsNoticePort } from "./ports/senders.port.ts";

export interface NoticePolicy {
  /** Waits between attempts of a notice that failed for a reason that may pass; spent: `failed`. */
  retryScheduleMs: number[];
  /** A claim's length (renewed while an attempt runs). */
  leaseMs: number;
}

/** What the notices use cases need, built by the composition root. */
export interface NoticesDeps {
  notices: NoticesPort;
  consumers: ConsumersPort;
  contacts: ContactsPort;
  sms: SmsNoticePort;
  /** null: no email channel (live providers without SMTP_URL). */
  email: EmailPort | null;
  policy: NoticePolicy;
  stats: NoticeStats;
  /** The consumer portal (PUBLIC_URL + /account): notices link to it. */
  portalUrl: string;
  /** Where optional notices can be stopped: the unsubscribe token is appended. */
  unsubscribeUrl: string;
  /** The key unsubscribe tokens are signed with. */
  unsubscribeKey: Buffer;
  optOuts: OptOutsPort;
  /**
   * A notice this process has just written under its own claim (`leaseId`, until `leaseUntil`):
   * sent at once, with no claim write and no poll; the worker's poll takes it over if this
   * process dies first (the claim runs out) or has no room for it (it is given back, due now).
   */
  sendClaimed(notice: NoticeDoc, leaseUntil: Date): void;
  logger: Logger;
  now(): Date;
}
