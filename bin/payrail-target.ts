import { join } from "node:path";
import { DEMO_MERCHANT_FILE, readSaved } from "./demo-merchant-file.ts";

/**
 * Where the command-line helpers (`npm run demo`, `payrail listen`) find Payrail: PAYRAIL_URL,
 * else PAYRAIL_API (the name `listen` read before; kept so existing setups work), else
 * http://127.0.0.1:$PORT (8080).
 */
export function payrailUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.PAYRAIL_URL || env.PAYRAIL_API || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, "");
}

/**
 * Which merchant they act as: PAYRAIL_API_KEY, else the demo merchant `npm start` created
 * (DATA_DIR/demo-merchant.json); null when there is neither.
 */
export async function payrailApiKey(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (env.PAYRAIL_API_KEY) return env.PAYRAIL_API_KEY;
  return (await readSaved(join(env.DATA_DIR || ".data", DEMO_MERCHANT_FILE)))?.apiKey ?? null;
}
