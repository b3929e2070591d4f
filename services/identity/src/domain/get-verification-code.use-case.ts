import { AppError, requireMerchant, type Principal, type SandboxVerificationCode } from "@payrail/contracts";
import { phoneFromPath } from "./phone-number.ts";
import { mayReadCodes, type CodeReadersDeps } from "./code-readers.ts";
import { CODE_TTL_MS, codeFromMessage } from "./verification-code.ts";
import type { SmsOutboxPort } from "./ports/sms.port.ts";
import type { VerificationCodesPort } from "./ports/verification-codes.port.ts";

/**
 * Sandbox only (API.md §8): the last code texted to a phone (as a URL path gives it), for the
 * merchants that may read it (`mayReadCodes`); any other merchant gets the same 404 as for a
 * phone nothing was sent to, so it learns nothing of other tenants' consumers.
 */
export async function getVerificationCode(
  deps: CodeReadersDeps & { outbox: SmsOutboxPort | null; codes: VerificationCodesPort },
  principal: Principal,
  rawPhone: string,
): Promise<SandboxVerificationCode> {
  const { merchantId } = requireMerchant(principal);
  if (!deps.outbox) throw new AppError("resource_missing", "verification codes can be read back in sandbox mode only");
  const phone = phoneFromPath(rawPhone);
  const missing = () => new AppError("resource_missing", `no verification code was sent to ${phone}`, { param: "phone" });
  if (!(await mayReadCodes(deps, merchantId, phone))) throw missing();
  const message = await deps.outbox.lastMessageTo(phone);
  const code = message ? codeFromMessage(message.text) : null;
  if (!message || !code) throw missing();
  // The record's expiry is the one verify checks; the send time is the fallback.
  const record = await deps.codes.find(phone);
  const expiresAt = record?.expiresAt ?? new Date(Date.parse(message.sentAt) + CODE_TTL_MS).toISOString();
  return { phone, code, expires_at: expiresAt };
}
