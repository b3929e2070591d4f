import type { Transport } from "@payrail/messaging";
import type { FastifyInstance } from "fastify";
import type { InfraVariant } from "./infra.ts";
export declare const ADMIN_TOKEN = "test-admin-token";
export interface Stack {
    app: FastifyInstance;
    /** A client transport, for calls that bypass HTTP. */
    transport: Transport;
    /** Creates a merchant through identity and returns its id and api-key. */
    merchant(name?: string): Promise<{
        id: string;
        apiKey: string;
    }>;
    close(): Promise<void>;
}
/**
 * The four domain services on the variant's bus and store, and the gateway app in front of
 * them (driven with `app.inject`, no port). The gateway uses its own transport, as a separate
 * process would.
 */
export declare function startStack(variant: InfraVariant, options?: {
    apiKeyCacheMs?: number;
    rateLimitPerMinute?: number;
}): Promise<Stack>;
