import { AppError, sendNoticeSmsOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { SendOutcome, SmsNoticePort } from "../../domain/ports/senders.port.ts";
import { asNotices } from "../../data-access/contacts.client.ts";

/** Codes of identity's SMS refusals that no retry can help. */
const PERMANENT = new Set(["invalid_phone_number"]);

/**
 * SMS through identity, which holds the consumer's phone and the SMS provider (Twilio live):
 * notices never sees the number (docs/decisions/0009-consumer-notices.md).
 */
export class IdentitySmsSender implements SmsNoticePort {
  constructor(private readonly transport: Transport) {}

  async send(userId: string, text: string): Promise<SendOutcome> {
    try {
      const out = await this.transport.call(sendNoticeSmsOp, { user_id: userId, text }, asNotices());
      return { ok: true, providerMessageId: out.message_id };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, permanent: PERMANENT.has(err.code), error: `${err.code}: ${err.message}` };
      throw err;
    }
  }
}
