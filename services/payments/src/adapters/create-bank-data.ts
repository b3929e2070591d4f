import type { Config, Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { BankDataPort } from "../domain/bank-accounts/ports/bank-data.port.ts";
import { SandboxBankDataAdapter } from "./sandbox/sandbox-bank-data.adapter.ts";

export type BankDataConfig = Pick<Config, "PROVIDERS" | "PLAID_CLIENT_ID" | "PLAID_SECRET" | "PLAID_ENV" | "PLAID_BASE_URL">;

/**
 * PROVIDERS=sandbox: the simulator; live: Plaid, whose credentials must then be set. The Plaid
 * SDK is loaded only then: it alone costs ~90 MB of memory, which sandbox processes never need.
 */
export async function createBankData(config: BankDataConfig, store: Store, logger: Logger): Promise<BankDataPort> {
  if (config.PROVIDERS === "sandbox") return new SandboxBankDataAdapter(store);
  const missing = (["PLAID_CLIENT_ID", "PLAID_SECRET"] as const).filter((name) => !config[name]);
  if (missing.length > 0) throw new Error(`PROVIDERS=live needs ${missing.join(" and ")} (Plaid credentials) for the payments service`);
  const { PlaidBankDataAdapter } = await import("./plaid/plaid.adapter.ts");
  return new PlaidBankDataAdapter(
    { clientId: config.PLAID_CLIENT_ID!, secret: config.PLAID_SECRET!, env: config.PLAID_ENV, baseUrl: config.PLAID_BASE_URL },
    logger,
  );
}
