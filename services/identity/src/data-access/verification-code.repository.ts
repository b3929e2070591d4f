import { DuplicateKeyError, type Store } from "@payrail/store";
import type { VerificationCodeRecord } from "../domain/consumer.entity.ts";
import type { NewCode, VerificationCodesPort } from "../domain/ports/verification-codes.port.ts";

/** One document per phone (`_id`); each change is one findOneAndUpdate pinned to `codeId`. */
export class VerificationCodeRepository implements VerificationCodesPort {
  constructor(private readonly store: Store) {}

  private get codes() {
    return this.store.collection<VerificationCodeRecord>("verification_codes");
  }

  find(phone: string): Promise<VerificationCodeRecord | null> {
    return this.codes.findOne({ _id: phone });
  }

  async replace(phone: string, expectedCodeId: string | null, code: NewCode): Promise<boolean> {
    const fields = {
      codeId: code.codeId,
      codeHash: code.codeHash,
      expiresAt: code.expiresAt,
      attempts: 0,
      consumedAt: null,
      lastSentAt: code.now,
      sentAt: code.sentAt,
      // A new code has no sandbox readers yet: what they were given was for the old one.
      scopes: {},
      scopeCount: 0,
    };
    if (expectedCodeId === null) {
      try {
        await this.codes.insertOne({ _id: phone, ...fields, createdAt: code.now });
        return true;
      } catch (err) {
        // Another first send for this phone won.
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    }
    return (await this.codes.findOneAndUpdate({ _id: phone, codeId: expectedCodeId }, { $set: fields })) !== null;
  }

  countWrongAttempt(phone: string, codeId: string, maxAttempts: number): Promise<VerificationCodeRecord | null> {
    return this.codes.findOneAndUpdate(
      { _id: phone, codeId, consumedAt: null, attempts: { $lt: maxAttempts } },
      { $inc: { attempts: 1 } },
    );
  }

  async consume(phone: string, codeId: string, maxAttempts: number, now: string): Promise<boolean> {
    const consumed = await this.codes.findOneAndUpdate(
      { _id: phone, codeId, consumedAt: null, attempts: { $lt: maxAttempts }, expiresAt: { $gt: now } },
      { $set: { consumedAt: now, codeHash: null } },
    );
    return consumed !== null;
  }

  async addScope(phone: string, codeId: string, expectedCount: number | null, merchantId: string, round: number): Promise<boolean> {
    const added = await this.codes.findOneAndUpdate(
      // `null` also matches the missing count of a code sent before scopes existed.
      { _id: phone, codeId, scopeCount: expectedCount },
      { $set: { [scopePath(merchantId)]: { round, consumedAt: null }, scopeCount: (expectedCount ?? 0) + 1 } },
    );
    return added !== null;
  }

  async consumeScope(phone: string, codeId: string, merchantId: string, round: number, maxAttempts: number, now: string): Promise<boolean> {
    const scope = scopePath(merchantId);
    const consumed = await this.codes.findOneAndUpdate(
      {
        _id: phone,
        codeId,
        [`${scope}.round`]: round,
        [`${scope}.consumedAt`]: null,
        codeHash: { $ne: null },
        attempts: { $lt: maxAttempts },
        expiresAt: { $gt: now },
      },
      { $set: { [`${scope}.consumedAt`]: now } },
    );
    return consumed !== null;
  }

  async withdraw(phone: string, codeId: string, lastSentAt: string | null): Promise<void> {
    await this.codes.findOneAndUpdate({ _id: phone, codeId, consumedAt: null }, { $set: { codeHash: null, lastSentAt } });
  }
}

/** The field of one merchant's scope; merchant ids are `mer_` and hex, never a path of their own. */
function scopePath(merchantId: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(merchantId)) throw new Error(`not a merchant id: ${JSON.stringify(merchantId)}`);
  return `scopes.${merchantId}`;
}
