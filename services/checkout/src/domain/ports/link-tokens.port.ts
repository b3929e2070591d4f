import type { LinkTokenRecord } from "../checkout.entity.ts";

/** Storage of merchant link tokens (by hash). */
export interface LinkTokensPort {
  insert(record: LinkTokenRecord): Promise<void>;
  findByHash(hash: string): Promise<LinkTokenRecord | null>;
}
