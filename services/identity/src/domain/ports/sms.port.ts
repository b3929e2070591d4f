/**
 * Sends text messages to phones. Adapters: `adapters/sandbox` (keeps them in an outbox) and
 * `adapters/twilio` (the live provider).
 */
export interface SmsPort {
  /**
   * Sends `text` to `toE164` and resolves with the provider's message id once the provider
   * has accepted it (not when it is delivered). Rejects with an AppError:
   * `invalid_phone_number` when the provider says the number cannot receive it,
   * `provider_error` (with the provider's code) when the provider refused or failed.
   */
  send(toE164: string, text: string): Promise<{ messageId: string }>;
}

/** The sandbox's record of what it "sent"; there is none in live mode. */
export interface SmsOutboxPort {
  /** The last message sent to this phone, or null when none was. Shared by every instance. */
  lastMessageTo(phoneE164: string): Promise<{ text: string; sentAt: string } | null>;
}
