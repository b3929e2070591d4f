import { prefixedHexId, type Logger } from "@payrail/runtime";
import { DuplicateKeyError, type Store } from "@payrail/store";
import type { SmsOutboxPort, SmsPort } from "../../domain/ports/sms.port.ts";

interface OutboxRecord {
  /** The recipient, E.164. */
  _id: string;
  messageId: string;
  text: string;
  sentAt: string;
}

/**
 * The sandbox SMS provider: sends nothing, keeps the last message per phone in the store (so
 * the sandbox route can read a code back on any instance) and logs it at debug level. This is
 * the one place a code is written down in clear, and it exists only with PROVIDERS=sandbox.
 */
export class SandboxSmsAdapter implements SmsPort, SmsOutboxPort {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  private get outbox() {
    return this.store.collection<OutboxRecord>("sandbox_sms_outbox");
  }

  async send(toE164: string, text: string): Promise<{ messageId: string }> {
    const messageId = prefixedHexId("SM");
    const fields = { messageId, text, sentAt: new Date(this.now()).toISOString() };
    try {
      await this.outbox.findOneAndUpdate({ _id: toE164 }, { $set: fields }, { upsert: true });
    } catch (err) {
      // Two upserts of a new phone raced; the second one now finds the document.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.outbox.findOneAndUpdate({ _id: toE164 }, { $set: fields });
    }
    this.logger.debug({ to: toE164, sandboxText: text, messageId }, "sandbox SMS sent");
    return { messageId };
  }

  async lastMessageTo(phoneE164: string): Promise<{ text: string; sentAt: string } | null> {
    const record = await this.outbox.findOne({ _id: phoneE164 });
    return record ? { text: record.text, sentAt: record.sentAt } : null;
  }
}
