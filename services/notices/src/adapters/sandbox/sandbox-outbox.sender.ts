import { prefixedHexId } from "@payrail/runtime";
import type { EmailPort, SendOutcome, SmsNoticePort } from "../../domain/ports/senders.port.ts";

/**
 * The sandbox's outbox, for SMS always and for email without SMTP_URL: nothing leaves the
 * machine; the notice itself, with what it says, is the outbox (`GET /api/sandbox/notices`).
 */
export class SandboxOutboxSender implements EmailPort, SmsNoticePort {
  async send(): Promise<SendOutcome> {
    return { ok: true, providerMessageId: prefixedHexId("sandbox_") };
  }
}
