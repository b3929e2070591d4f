import type { Config, Logger } from "@payrail/runtime";
import type { Store } from "@payrail/store";
import type { TransferPort } from "../domain/transfers/ports/transfer.port.ts";
import type { TransferSimulator } from "../domain/transfers/transfer.deps.ts";
import { SandboxTransferAdapter } from "./sandbox-transfers/sandbox-transfer.adapter.ts";

export type TransfersConfig = Pick<Config, "PROVIDERS" | "DWOLLA_KEY" | "DWOLLA_SECRET" | "DWOLLA_ENV" | "DWOLLA_BASE_URL">;

/** The transfer provider, and its simulator when it is the sandbox one. */
export interface TransferProvider {
  transfers: TransferPort;
  simulator?: TransferSimulator;
}

/**
 * PROVIDERS=sandbox: the simulator (which also simulates); live: Dwolla, whose credentials must be
 * set. The Dwolla SDK is loaded only in live mode (memory, like Plaid's).
 */
export async function createTransfers(
  config: TransfersConfig,
  store: Store,
  logger: Logger,
  /** The simulator's clock (tests move it past the provider's idempotency window). */
  now: () => Date = () => new Date(),
): Promise<TransferProvider> {
  if (config.PROVIDERS === "sandbox") {
    const sandbox = new SandboxTransferAdapter(store, logger, () => now().getTime());
    return { transfers: sandbox, simulator: sandbox };
  }
  const missing = (["DWOLLA_KEY", "DWOLLA_SECRET"] as const).filter((name) => !config[name]);
  if (missing.length > 0) throw new Error(`PROVIDERS=live needs ${missing.join(" and ")} (Dwolla credentials) for the payments service`);
  const { DwollaTransferAdapter } = await import("./dwolla/dwolla.adapter.ts");
  return {
    transfers: new DwollaTransferAdapter(
      { key: config.DWOLLA_KEY!, secret: config.DWOLLA_SECRET!, env: config.DWOLLA_ENV, baseUrl: config.DWOLLA_BASE_URL },
      logger,
    ),
  };
}
