import type { Config, Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { BankDataPort } from "../domain/ports/bank-data.port.ts";
import { PlaidBankDataAdapter } from "./plaid/plaid.adapter.ts";
import { SandboxBankDataAdapter } from "./sandbox/sandbox-bank-data.adapter.ts";

export type BankDataConfig = Pick<Config, "PROVIDERS" | "PLAID_CLIENT_ID" | "PLAID_SECRET" | "PLAID_ENV" | "PLAID_BASE_URL">;

/** PROVIDERS=sandbox: the simulator; live: Plaid, whose credentials must then be set. */
export function createBankData(config: BankDataConfig, store: Store, logger: Logger): BankDataPort {
  if (config.PROVIDERS === "sandbox") return new SandboxBankDataAdapter(store);
  const missing = (["PLAID_CLIENT_ID", "PLAID_SECRET"] as const).filter((name) => !config[name]);
  if (missing.length > 0) throw new Error(`PROVIDERS=live needs ${missing.join(" and ")} (Plaid credentials) for the payments service`);
  return new PlaidBankDataAdapter(
    { clientId: config.PLAID_CLIENT_ID!, secret: config.PLAID_SECRET!, env: config.PLAID_ENV, baseUrl: config.PLAID_BASE_URL },
    logger,
  );
}
