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

  async withdraw(phone: string, codeId: string, lastSentAt: string | null): Promise<void> {
    await this.codes.findOneAndUpdate({ _id: phone, codeId, consumedAt: null }, { $set: { codeHash: null, lastSentAt } });
  }
}
