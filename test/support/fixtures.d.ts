import type { MerchantPrincipal } from "@payrail/contracts";
/** A checkout body shaped like the specification's example, with a fresh merchant_checkout_id. */
export declare function sampleCheckout(overrides?: Record<string, unknown>): Record<string, unknown>;
export declare function merchantPrincipal(merchantId?: string): MerchantPrincipal;
/** JSON round trip: what a client would see of a value (drops undefined keys). */
export declare function asJson<T>(value: T): T;
