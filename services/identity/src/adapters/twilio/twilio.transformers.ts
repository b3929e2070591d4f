import { AppError } from "@payrail/contracts";

/**
 * Twilio error codes that mean the recipient number itself is unusable, answered as our 400
 * `invalid_phone_number`: 21211 invalid 'To' number, 21217 number does not appear valid,
 * 21401 invalid phone number, 21614 'To' is not a mobile number. Everything else Twilio
 * refuses (account, sender, opted-out recipient, its own rate limit 20429) is a 502
 * `provider_error` carrying Twilio's code: the consumer cannot fix it by retyping.
 */
export const INVALID_NUMBER_CODES: ReadonlySet<number> = new Set([21211, 21217, 21401, 21614]);

/** The Messages API parameters: a messaging service sid (`MG…`) or a number as the sender. */
export function toMessageParams(to: string, from: string, text: string): { to: string; body: string; from?: string; messagingServiceSid?: string } {
  return /^MG[0-9a-f]{32}$/i.test(from) ? { to, body: text, messagingServiceSid: from } : { to, body: text, from };
}

/** The message id from Twilio's 201 answer. */
export function fromCreatedMessage(message: { sid?: unknown }): { messageId: string } {
  if (typeof message.sid !== "string" || message.sid === "") throw new AppError("provider_error", "the SMS provider answered without a message id");
  return { messageId: message.sid };
}

/**
 * A failure of the SDK call to our error. Twilio's `RestException` carries `status` (HTTP)
 * and `code` (Twilio's number); a network failure carries neither. Twilio's message is not
 * passed on: it may quote the recipient or the account.
 */
export function toSmsError(err: unknown): AppError {
  const e = (typeof err === "object" && err !== null ? err : {}) as { status?: unknown; code?: unknown };
  const code = typeof e.code === "number" ? e.code : undefined;
  if (code !== undefined && INVALID_NUMBER_CODES.has(code)) {
    return new AppError("invalid_phone_number", "the SMS provider says this number cannot receive text messages", {
      param: "phone",
      providerCode: String(code),
    });
  }
  if (typeof e.status === "number") {
    const providerCode = code !== undefined ? String(code) : `http_${e.status}`;
    return new AppError("provider_error", `the SMS provider refused the message (${providerCode})`, { providerCode });
  }
  return new AppError("provider_error", "the SMS provider could not be reached", { providerCode: "network_error" });
}
