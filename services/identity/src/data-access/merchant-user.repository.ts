import type { DashboardRole, DomainEvent } from "@payrail/contracts";
import { DuplicateKeyError, insertWithEvents, NOT_REMOVED, removeWithEvents, withEvents, type Store } from "@payrail/store";
import type { MerchantTeamRecord, MerchantUserRecord, TotpState } from "../domain/merchant-user.entity.ts";
import type { MerchantUsersPort } from "../domain/ports/merchant-users.port.ts";

/**
 * The collection of dashboard users; its documents carry the audit entries of the team's changes
 * (the outbox). A removed user stays as a tombstone until the entry is published, which every
 * query here skips (`NOT_REMOVED`); its email is taken until then, a moment.
 */
export const MERCHANT_USERS_COLLECTION = "merchant_users";

/** Dashboard users (`merchant_users`). */
export class MerchantUserRepository implements MerchantUsersPort {
  constructor(private readonly store: Store) {}

  private get users() {
    return this.store.collection<MerchantUserRecord>(MERCHANT_USERS_COLLECTION);
  }

  private get teams() {
    return this.store.collection<MerchantTeamRecord>("merchant_teams");
  }

  async ensureIndexes(): Promise<void> {
    await this.users.createIndex({ keys: { email: 1 }, unique: true, name: "email" });
    await this.users.createIndex({ keys: { invitationHash: 1 }, name: "invitation" });
    await this.users.createIndex({ keys: { resetHash: 1 }, name: "reset_link" });
    await this.users.createIndex({ keys: { merchantId: 1, createdAt: 1 }, name: "merchant_oldest" });
    await this.users.createIndex({ keys: { merchantId: 1, role: 1 }, name: "merchant_role" });
  }

  async insert(user: MerchantUserRecord, audit: readonly DomainEvent[] = []): Promise<boolean> {
    try {
      await this.users.insertOne(insertWithEvents(user, audit));
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  findById(id: string): Promise<MerchantUserRecord | null> {
    return this.users.findOne({ ...NOT_REMOVED, _id: id });
  }

  findByEmail(email: string): Promise<MerchantUserRecord | null> {
    return this.users.findOne({ ...NOT_REMOVED, email });
  }

  findByInvitation(hash: string): Promise<MerchantUserRecord | null> {
    return this.users.findOne({ ...NOT_REMOVED, invitationHash: hash });
  }

  reinvite(id: string, role: DashboardRole, hash: string, expiresAt: string, audit: readonly DomainEvent[] = []): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, status: "invited" }, withEvents({ $set: { role, invitationHash: hash, invitationExpiresAt: expiresAt } }, audit));
  }

  accept(hash: string, passwordHash: string, now: string): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate(
      { ...NOT_REMOVED, invitationHash: hash, invitationExpiresAt: { $gt: now } },
      { $set: { passwordHash, status: "active", invitationHash: null, invitationExpiresAt: null } },
    );
  }

  changeRole(merchantId: string, id: string, from: DashboardRole, to: DashboardRole, audit: readonly DomainEvent[] = []): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, merchantId, role: from }, withEvents({ $set: { role: to }, $inc: { sessionEpoch: 1 } }, audit));
  }

  async remove(merchantId: string, id: string, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return (await this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, merchantId }, removeWithEvents(audit))) !== null;
  }

  startTotp(id: string, pending: TotpState): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, "totp.enabled": { $ne: true } }, { $set: { totp: pending } });
  }

  enableTotp(id: string, secretSealed: string, step: number, recovery: Record<string, boolean>, audit: readonly DomainEvent[] = []): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate(
      { ...NOT_REMOVED, _id: id, "totp.enabled": false, "totp.secretSealed": secretSealed },
      withEvents({ $set: { "totp.enabled": true, "totp.lastStep": step, "totp.recovery": recovery } }, audit),
    );
  }

  async takeTotpStep(id: string, step: number): Promise<boolean> {
    return (await this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, "totp.enabled": true, "totp.lastStep": { $lt: step } }, { $set: { "totp.lastStep": step } })) !== null;
  }

  async spendRecoveryCode(id: string, hash: string): Promise<boolean> {
    return (await this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, "totp.enabled": true, [`totp.recovery.${hash}`]: false }, { $set: { [`totp.recovery.${hash}`]: true } })) !== null;
  }

  async disableTotp(id: string, secretSealed: string, audit: readonly DomainEvent[] = []): Promise<boolean> {
    return (await this.users.findOneAndUpdate({ ...NOT_REMOVED, _id: id, "totp.secretSealed": secretSealed }, withEvents({ $set: { totp: null } }, audit))) !== null;
  }

  setResetLink(email: string, hash: string, expiresAt: string): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate({ ...NOT_REMOVED, email, status: "active" }, { $set: { resetHash: hash, resetExpiresAt: expiresAt } });
  }

  resetPassword(hash: string, passwordHash: string, now: string): Promise<MerchantUserRecord | null> {
    return this.users.findOneAndUpdate(
      { ...NOT_REMOVED, resetHash: hash, resetExpiresAt: { $gt: now }, status: "active" },
      { $set: { passwordHash, resetHash: null, resetExpiresAt: null }, $inc: { sessionEpoch: 1 } },
    );
  }

  listForMerchant(merchantId: string, limit: number): Promise<MerchantUserRecord[]> {
    return this.users.find({ ...NOT_REMOVED, merchantId }, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  async releaseOwner(merchantId: string): Promise<boolean> {
    for (;;) {
      if (await this.teams.findOneAndUpdate({ _id: merchantId, owners: { $gt: 1 } }, { $inc: { owners: -1 } })) return true;
      if (await this.teams.findOne({ _id: merchantId })) return false;
      // First guarded change of this team: seed its count from the users (insert-if-absent, so
      // concurrent seeds agree on the first one's count).
      const owners = await this.users.countDocuments({ ...NOT_REMOVED, merchantId, role: "owner", status: "active" });
      await this.teams.findOneAndUpdate({ _id: merchantId }, { $setOnInsert: { owners } }, { upsert: true }).catch((err: unknown) => {
        if (!(err instanceof DuplicateKeyError)) throw err;
      });
    }
  }

  async addOwner(merchantId: string): Promise<void> {
    await this.teams.findOneAndUpdate({ _id: merchantId }, { $inc: { owners: 1 } });
  }
}
