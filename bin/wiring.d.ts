import { type Transport } from "@payrail/messaging";
import type { Config, Logger, ServiceName } from "@payrail/runtime";
import { type Store } from "@payrail/store";
export interface Started {
    name: string;
    stop(): Promise<void>;
    url?: string;
}
export declare function openStore(config: Config, logger: Logger): Promise<Store>;
export declare function openTransport(config: Config, logger: Logger): Promise<Transport>;
/**
 * Starts the named services on one transport and store: domain services first (they create
 * their indexes before consuming), the gateway last, so it never accepts a request early.
 */
export declare function startServices(names: readonly ServiceName[], deps: {
    config: Config;
    logger: Logger;
    transport: Transport;
    store: Store | null;
}): Promise<Started[]>;
