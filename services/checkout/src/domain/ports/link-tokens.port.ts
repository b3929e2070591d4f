import type { DomainEvent } from "@payrail/contracts";
import type { LinkTokenRecord } from "../checkout.entity.ts";

/** Storage of merchant link tokens (by hash). */
export interface LinkTokensPort {
  /** Stores the token's record with its audit entry (one insert). */
  insert(record: LinkTokenRecord, audit?: readonly DomainEvent[]): Promise<void>;
  findByHash(hash: string): Promise<LinkTokenRecord | null>;
}
