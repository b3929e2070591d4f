/** A merchant's count of webhook endpoints, kept beside them so a limit holds under races. */
export interface EndpointQuota {
  count: number;
  updatedAt: string;
}

/** The per-merchant endpoint counters; every change is one conditional write. */
export interface EndpointQuotaPort {
  /** Counts one more endpoint if the merchant has fewer than `limit`; false when full or not counted yet. */
  take(merchantId: string, limit: number, at: string): Promise<boolean>;
  find(merchantId: string): Promise<EndpointQuota | null>;
  /** Starts the merchant's count at `count` (its endpoints made before counting); no-op when one exists. */
  open(merchantId: string, count: number, at: string): Promise<void>;
  /** Sets the count to `count` if it is still `expected` as last read (repairs a count a crash left high). */
  correct(merchantId: string, expected: EndpointQuota, count: number, at: string): Promise<boolean>;
  /** Counts one endpoint less (deleted, or its insert failed). */
  release(merchantId: string, at: string): Promise<void>;
}
