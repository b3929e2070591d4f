import { type Transport } from "@payrail/messaging";
import { type Store } from "@payrail/store";
/**
 * One way to run services in a test: a bus and a store. Every suite that drives services runs
 * once per variant: in-process bus + embedded store always, RabbitMQ + MongoDB whenever they
 * are reachable (and, with REQUIRE_INFRA=1, the suite fails if they are not).
 */
export interface InfraVariant {
    name: string;
    /** Why the variant cannot run here; the suite skips it (never under REQUIRE_INFRA=1). */
    skipReason?: string;
    /** A new transport on this variant's bus (servers and clients get separate ones). */
    transport(): Promise<Transport>;
    /** The store shared by the services of one test file. */
    store(): Promise<Store>;
    /** Closes what the variant opened and drops its test database. */
    cleanup(): Promise<void>;
}
export declare function embeddedVariant(): InfraVariant;
export declare function brokerVariant(): Promise<InfraVariant>;
/** Both variants, for `describe.each`. */
export declare function infraVariants(): Promise<InfraVariant[]>;
