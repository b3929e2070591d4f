import { AppError, createMerchantOp, getMerchantOp } from "@payrail/contracts";
import type { Transport } from "@payrail/messaging";
import type { Config } from "@payrail/runtime";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const DEMO_MERCHANT_FILE = "demo-merchant.json";
const admin = { requestId: "demo-merchant", principal: { kind: "admin" as const } };

/**
 * A newcomer's first `npm start` gets a merchant to try the API with. Keys are stored only
 * as hashes, so the demo key is also written to DATA_DIR/demo-merchant.json (mode 0600) to
 * be shown on later starts: a sandbox convenience, never done in live mode.
 */
export async function ensureDemoMerchant(
  config: Config,
  transport: Transport,
): Promise<{ merchantId: string; apiKey: string } | null> {
  const wanted = config.DEMO_MERCHANT === "on" || (config.DEMO_MERCHANT === "auto" && !config.MONGODB_URL);
  if (!wanted || config.PROVIDERS === "live") return null;
  const path = join(config.DATA_DIR, DEMO_MERCHANT_FILE);
  const saved = await readSaved(path);
  if (saved && (await exists(transport, saved.merchantId))) return saved;

  const created = await transport.call(createMerchantOp, { name: "Demo merchant" }, admin);
  const demo = { merchantId: created.merchant.id, apiKey: created.api_key };
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(path, JSON.stringify(demo, null, 2), { mode: 0o600 });
  await chmod(path, 0o600);
  return demo;
}

/** The saved demo merchant, or null when there is none (or the file is not ours). */
export async function readSaved(path: string): Promise<{ merchantId: string; apiKey: string } | null> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as { merchantId?: unknown; apiKey?: unknown };
    return typeof value.merchantId === "string" && typeof value.apiKey === "string"
      ? { merchantId: value.merchantId, apiKey: value.apiKey }
      : null;
  } catch {
    return null;
  }
}

async function exists(transport: Transport, merchantId: string): Promise<boolean> {
  try {
    await transport.call(getMerchantOp, { merchant_id: merchantId }, admin);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === "merchant_not_found") return false;
    throw err;
  }
}
