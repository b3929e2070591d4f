import { readFile } from "node:fs/promises";

/**
 * The demo merchant `npm start` saves in DATA_DIR (demo-merchant.ts), read by the helpers that
 * act as it (`npm run demo`, `payrail trigger`, `listen`): a file of its own, so reading it loads
 * neither the contracts nor the runtime.
 */
export const DEMO_MERCHANT_FILE = "demo-merchant.json";

export interface DemoMerchant {
  merchantId: string;
  apiKey: string;
  /** The dashboard sign-in of the demo merchant's owner. */
  owner?: { email: string; password: string } | undefined;
}

/** The saved demo merchant, or null when there is none (or the file is not ours). */
export async function readSaved(path: string): Promise<DemoMerchant | null> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as { merchantId?: unknown; apiKey?: unknown; owner?: { email?: unknown; password?: unknown } };
    if (typeof value.merchantId !== "string" || typeof value.apiKey !== "string") return null;
    const owner = typeof value.owner?.email === "string" && typeof value.owner.password === "string" ? { email: value.owner.email, password: value.owner.password } : undefined;
    return { merchantId: value.merchantId, apiKey: value.apiKey, owner };
  } catch {
    return null;
  }
}
