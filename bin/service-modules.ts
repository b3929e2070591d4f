/**
 * The services' packages, each loaded by `startServices` only when a process runs that service
 * (and by `payrail indexes`, for their index lists): a CLI command that goes through a running gateway's admin routes loads none of them, and one
 * that starts identity on the store loads identity alone (fastify, the providers' SDKs and every
 * other service's code would otherwise cost each command about a second).
 */
export const SERVICE_MODULES = {
  checkout: () => import("@payrail/checkout"),
  gateway: () => import("@payrail/gateway"),
  identity: () => import("@payrail/identity"),
  payments: () => import("@payrail/payments"),
  refunds: () => import("@payrail/refunds"),
  notices: () => import("@payrail/notices"),
  ledger: () => import("@payrail/ledger"),
  webhooks: () => import("@payrail/webhooks"),
};
