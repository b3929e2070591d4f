/** Every domain service, in the order a process starts them; what an embedded CLI command that moves state starts, so events flow. */
export const DOMAIN_SERVICES = ["identity", "checkout", "payments", "refunds", "webhooks", "notices", "ledger"] as const;
