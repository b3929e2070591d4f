import type { MerchantPrincipal } from "@payrail/contracts";

/**
 * A short cache of resolved api-keys, keyed by the key's hash (the raw key is not kept).
 * A key revoked through this gateway stops here at once (`forget`); on another gateway that
 * resolved it just before, it keeps working for at most `ttlMs` (API_KEY_CACHE_MS, 5 s by
 * default); 0 turns the cache off.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { principal: MerchantPrincipal; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(hash: string): MerchantPrincipal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.principal;
  }

  /** Drops the merchant's cached key with this prefix (revoked): a scan, as revocations are rare. */
  forget(merchantId: string, keyPrefix: string): void {
    for (const [hash, { principal }] of this.entries) {
      if (principal.merchantId === merchantId && principal.keyPrefix === keyPrefix) this.entries.delete(hash);
    }
  }

  set(hash: string, principal: MerchantPrincipal): void {
    if (this.ttlMs <= 0) return;
    // Oldest first out: Map keeps insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(hash, { principal, expiresAt: Date.now() + this.ttlMs });
  }
}
