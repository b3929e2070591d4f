import { AppError, requireMerchant, type Principal, type SandboxVerificationCode } from "@payrail/contracts";
import { phoneFromPath } from "./phone-number.ts";
import { CODE_TTL_MS, codeFromMessage } from "./verification-code.ts";
import type { SmsOutboxPort } from "./ports/sms.port.ts";
import type { VerificationCodesPort } from "./ports/verification-codes.port.ts";

/**
 * Sandbox only (API.md §8): the last code texted to a phone (as a URL path gives it), for any
 * merchant.
 */
export async function getVerificationCode(
  deps: { outbox: SmsOutboxPort | null; codes: VerificationCodesPort },
  principal: Principal,
  rawPhone: string,
): Promise<SandboxVerificationCode> {
  requireMerchant(principal);
  if (!deps.outbox) throw new AppError("resource_missing", "verification codes can be read back in sandbox mode only");
  const phone = phoneFromPath(rawPhone);
  const message = await deps.outbox.lastMessageTo(phone);
  const code = message ? codeFromMessage(message.text) : null;
  if (!message || !code) throw new AppError("resource_missing", `no verification code was sent to ${phone}`, { param: "phone" });
  // The record's expiry is the one verify checks; the send time is the fallback.
  const record = await deps.codes.find(phone);
  const expiresAt = record?.expiresAt ?? new Date(Date.parse(message.sentAt) + CODE_TTL_MS).toISOString();
  return { phone, code, expires_at: expiresAt };
}
