import type { DomainEvent } from "@payrail/contracts";
import type { OperatorRecord } from "../operator.entity.ts";

/** Storage of merchant operators (one record per merchant and phone). */
export interface OperatorsPort {
  /** Inserts the record with its audit entry (one write) unless the pair is registered already; false then (nothing changes). */
  add(record: OperatorRecord, audit?: readonly DomainEvent[]): Promise<boolean>;
  /** Whether the phone (E.164) is registered as an operator of the merchant. */
  isOperator(merchantId: string, phone: string): Promise<boolean>;
  /** The merchant's operators, oldest first, at most `limit`. */
  listForMerchant(merchantId: string, limit: number): Promise<OperatorRecord[]>;
  /** The merchants whose operator the phone (E.164) is, at most `limit`. */
  merchantsOf(phone: string, limit: number): Promise<string[]>;
  /** Removes the pair's record with its audit entry (one write); false when there was none. */
  remove(merchantId: string, phone: string, audit?: readonly DomainEvent[]): Promise<boolean>;
}
