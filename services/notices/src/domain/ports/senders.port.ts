/**
 * What one send came to. `permanent`: the provider refused the recipient for good (an SMTP 5xx
 * such as a bounce at RCPT, an SMS number that cannot receive): no retry helps.
 */
export type SendOutcome = { ok: true; providerMessageId: string } | { ok: false; permanent: boolean; error: string };

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The notice id: the Message-ID, so a resend after a crash is recognisably the same message. */
  noticeId: string;
  /** Where the consumer stops optional notices (a `List-Unsubscribe` header); absent on the authorization copy. */
  unsubscribeUrl?: string | undefined;
}

/** Sends email (adapters: SMTP with nodemailer, the sandbox outbox). */
export interface EmailPort {
  send(message: EmailMessage): Promise<SendOutcome>;
}

/** Sends SMS to a consumer's verified phone (adapters: identity's provider over RPC, the sandbox outbox). */
export interface SmsNoticePort {
  send(userId: string, text: string): Promise<SendOutcome>;
}
