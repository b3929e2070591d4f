/**
 * The services' packages, loaded by `startServices` only when a process runs services: a CLI
 * command that goes through a running gateway's admin routes never loads them (fastify, the
 * providers' SDKs and every service's code would otherwise cost each command about a second).
 */
export * as checkout from "@payrail/checkout";
export * as gateway from "@payrail/gateway";
export * as identity from "@payrail/identity";
export * as payments from "@payrail/payments";
export * as refunds from "@payrail/refunds";
export * as notices from "@payrail/notices";
export * as ledger from "@payrail/ledger";
export * as webhooks from "@payrail/webhooks";
