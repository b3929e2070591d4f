import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient.js";
import type { SmsPort } from "../../domain/ports/sms.port.ts";
import { fromCreatedMessage, toMessageParams, toSmsError } from "./twilio.transformers.ts";

export interface TwilioSmsOptions {
  accountSid: string;
  authToken: string;
  /** An E.164 number of the account, or a messaging service sid (`MG…`). */
  fromNumber: string;
  /**
   * Sends the SDK's requests to this origin instead of `https://api.twilio.com` (tests use a
   * local server that answers like Twilio's Messages API; a proxy could too).
   */
  apiBaseUrl?: string;
  timeoutMs?: number;
}

/**
 * The SDK's own HTTP client with the origin swapped. Twilio's documented hook for custom
 * transports is the `httpClient` option; this keeps its auth, form encoding and answers intact.
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(
    private readonly base: URL,
    timeoutMs: number,
  ) {
    super({ timeout: timeoutMs });
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const original = new URL(opts.uri);
    return super.request<TData>({ ...opts, uri: new URL(original.pathname + original.search, this.base).href });
  }
}

/** The live SMS provider: Twilio's Messages API through the official SDK. */
export class TwilioSmsAdapter implements SmsPort {
  private readonly client: twilio.Twilio;

  constructor(private readonly options: TwilioSmsOptions) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const httpClient = options.apiBaseUrl ? new RebasedRequestClient(new URL(options.apiBaseUrl), timeoutMs) : undefined;
    this.client = twilio(options.accountSid, options.authToken, { timeout: timeoutMs, ...(httpClient ? { httpClient } : {}) });
  }

  async send(toE164: string, text: string): Promise<{ messageId: string }> {
    let created: { sid?: unknown };
    try {
      created = await this.client.messages.create(toMessageParams(toE164, this.options.fromNumber, text));
    } catch (err) {
      throw toSmsError(err);
    }
    return fromCreatedMessage(created);
  }
}
