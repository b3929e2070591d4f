import type { Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { SmsOutboxPort, SmsPort } from "../domain/ports/sms.port.ts";
import { SandboxSmsAdapter } from "./sandbox/sandbox.adapter.ts";

export interface TwilioConfig {
  accountSid?: string | undefined;
  authToken?: string | undefined;
  fromNumber?: string | undefined;
  apiBaseUrl?: string | undefined;
}

/**
 * PROVIDERS=sandbox: the sandbox adapter, which is also the outbox the sandbox route reads.
 * PROVIDERS=live: Twilio, whose settings must all be present; a missing one stops the start
 * with a message naming it, rather than failing on the first consumer's send. The Twilio SDK is loaded only then (memory).
 */
export async function createSmsProvider(deps: {
  livemode: boolean;
  twilio?: TwilioConfig | undefined;
  store: Store;
  logger: Logger;
  now: () => number;
}): Promise<{ sms: SmsPort; outbox: SmsOutboxPort | null }> {
  if (!deps.livemode) {
    const sandbox = new SandboxSmsAdapter(deps.store, deps.logger, deps.now);
    return { sms: sandbox, outbox: sandbox };
  }
  const t = deps.twilio ?? {};
  const missing = [
    ["TWILIO_ACCOUNT_SID", t.accountSid],
    ["TWILIO_AUTH_TOKEN", t.authToken],
    ["TWILIO_FROM_NUMBER", t.fromNumber],
  ].filter(([, v]) => !v).map(([name]) => name);
  if (missing.length > 0) {
    throw new Error(`identity: PROVIDERS=live sends codes through Twilio and needs ${missing.join(", ")} (set ${missing.length > 1 ? "them" : "it"}, or use PROVIDERS=sandbox)`);
  }
  if (!/^AC[0-9a-f]{32}$/i.test(t.accountSid!)) throw new Error("identity: TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits");
  const { TwilioSmsAdapter } = await import("./twilio/twilio.adapter.ts");
  return {
    sms: new TwilioSmsAdapter({ accountSid: t.accountSid!, authToken: t.authToken!, fromNumber: t.fromNumber!, apiBaseUrl: t.apiBaseUrl }),
    outbox: null,
  };
}
