import { AppError, requireMerchant, type Principal, type SandboxVerificationCode } from "@payrail/contracts";
import { phoneFromPath } from "./phone-number.ts";
import { mayReadCodes, type CodeReadersDeps } from "./code-readers.ts";
import { readScopedCode, type ScopedCodesDeps } from "./scoped-codes.ts";
import type { SmsOutboxPort } from "./ports/sms.port.ts";

/**
 * Sandbox only (docs/api-notes.md, The sandbox): the code of a phone's current verification, as the reading merchant's
 * own code (docs/decisions/0001-sandbox-tenancy.md): verified, it yields a token that reaches
 * that merchant's records only, never the code texted, which the sandbox does not accept. Only
 * for the merchants that may read the phone (`mayReadCodes`); any other merchant gets the same
 * 404 as for a phone nothing was sent to, so it learns nothing of other tenants' consumers.
 */
export async function getVerificationCode(
  deps: CodeReadersDeps & ScopedCodesDeps & { outbox: SmsOutboxPort | null },
  principal: Principal,
  rawPhone: string,
): Promise<SandboxVerificationCode> {
  const { merchantId } = requireMerchant(principal);
  if (!deps.outbox) throw new AppError("resource_missing", "verification codes can be read back in sandbox mode only");
  const phone = phoneFromPath(rawPhone);
  const missing = () => new AppError("resource_missing", `no verification code was sent to ${phone}`, { param: "phone" });
  if (!(await mayReadCodes(deps, merchantId, phone))) throw missing();
  if (!(await deps.outbox.lastMessageTo(phone))) throw missing();
  const scoped = await readScopedCode(deps, phone, merchantId);
  if (!scoped) throw missing();
  return { phone, code: scoped.code, expires_at: scoped.record.expiresAt };
}
