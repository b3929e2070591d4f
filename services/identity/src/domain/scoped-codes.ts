import { AppError } from "@payrail/contracts";
import type { VerificationCodeRecord } from "./consumer.entity.ts";
import type { VerificationCodesPort } from "./ports/verification-codes.port.ts";
import { sameCode, scopedCode } from "./verification-code.ts";

/**
 * Sandbox codes per merchant (docs/decisions/0001-sandbox-tenancy.md): a merchant that reads a
 * phone's code back gets a code of its own for that verification, whose token reaches its
 * records only. Readers per code are bounded, so one verification stays one small document.
 */
export const MAX_SCOPES = 16;
/**
 * Concurrent first reads by several merchants: each loser reads the record again. A lost round
 * is another reader's win (or a new code), so past MAX_SCOPES wins the cap answers instead.
 */
const MAX_WRITE_ROUNDS = MAX_SCOPES + 2;

export interface ScopedCodesDeps {
  codes: Pick<VerificationCodesPort, "find" | "addScope">;
  codeKey: Buffer;
}

/**
 * Merchant M's code for the phone's current verification, made M's on its first read (one
 * conditional write on the count of readers, so two merchants racing cannot both take the
 * same code); later reads answer the same code. Null when the phone has no code to read.
 */
export async function readScopedCode(deps: ScopedCodesDeps, phone: string, merchantId: string): Promise<{ code: string; record: VerificationCodeRecord } | null> {
  for (let attempt = 0; attempt < MAX_WRITE_ROUNDS; attempt++) {
    const record = await deps.codes.find(phone);
    if (!record || record.codeHash === null || record.consumedAt !== null) return null;
    const scopes = record.scopes ?? {};
    const own = scopes[merchantId];
    if (own) return { code: scopedCode(deps.codeKey, phone, record.codeId, merchantId, own.round), record };
    if (Object.keys(scopes).length >= MAX_SCOPES) {
      throw new AppError("rate_limited", "too many merchants read this phone's code; send a new code", { param: "phone", retryAfter: 30 });
    }
    // A code no other reader has, so the code alone tells whose token it is.
    const taken = new Set(Object.entries(scopes).map(([other, s]) => scopedCode(deps.codeKey, phone, record.codeId, other, s.round)));
    let pick = 0;
    while (taken.has(scopedCode(deps.codeKey, phone, record.codeId, merchantId, pick))) pick++;
    if (await deps.codes.addScope(phone, record.codeId, record.scopeCount ?? null, merchantId, pick)) {
      return { code: scopedCode(deps.codeKey, phone, record.codeId, merchantId, pick), record };
    }
  }
  throw new AppError("rate_limited", "this phone's code is being read concurrently; retry shortly", { param: "phone", retryAfter: 1 });
}

/** The reader whose code `presented` is (every reader's is compared, in constant time each), or null. */
export function scopeOfCode(
  key: Buffer,
  phone: string,
  record: VerificationCodeRecord,
  presented: string,
): { merchantId: string; round: number; consumed: boolean } | null {
  let found: { merchantId: string; round: number; consumed: boolean } | null = null;
  for (const [merchantId, scope] of Object.entries(record.scopes ?? {})) {
    if (sameCode(key, phone, presented, scopedCode(key, phone, record.codeId, merchantId, scope.round))) {
      found = { merchantId, round: scope.round, consumed: scope.consumedAt !== null };
    }
  }
  return found;
}
