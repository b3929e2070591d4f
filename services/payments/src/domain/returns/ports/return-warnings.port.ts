import type { DomainEvent } from "@payrail/contracts";

/** Which return-rate groups of a merchant stand warned (merchant.return_rate_warning sent). */
export interface ReturnWarningsPort {
  /** Marks the group warned with `event` in one conditional write: false when it was already. */
  warnOnce(merchantId: string, group: string, at: string, event: DomainEvent): Promise<boolean>;
  /** The group's rate is below its warning level: a later rise warns again. */
  clear(merchantId: string, group: string): Promise<void>;
}
