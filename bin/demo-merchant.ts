import { acceptInvitationOp, AppError, createMerchantOp, getMerchantOp, inviteMerchantUserOp } from "@payrail/contracts";
import { randomToken } from "@payrail/runtime";
import type { Transport } from "@payrail/messaging";
import type { Config } from "@payrail/runtime";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DEMO_MERCHANT_FILE, readSaved, type DemoMerchant } from "./demo-merchant-file.ts";

const admin = { requestId: "demo-merchant", principal: { kind: "admin" as const } };

/**
 * A newcomer's first `npm start` gets a merchant to try the API with, and an owner to sign in
 * to its dashboard with. Keys and passwords are stored only as hashes, so the demo's are also
 * written to DATA_DIR/demo-merchant.json (mode 0600) to be shown on later starts: a sandbox
 * convenience, never done in live mode.
 */
export async function ensureDemoMerchant(config: Config, transport: Transport): Promise<DemoMerchant | null> {
  const wanted = config.DEMO_MERCHANT === "on" || (config.DEMO_MERCHANT === "auto" && !config.MONGODB_URL);
  if (!wanted || config.PROVIDERS === "live") return null;
  const path = join(config.DATA_DIR, DEMO_MERCHANT_FILE);
  const saved = await readSaved(path);
  let demo: DemoMerchant;
  if (saved && (await exists(transport, saved.merchantId))) {
    if (saved.owner) return saved;
    demo = saved;
  } else {
    const created = await transport.call(createMerchantOp, { name: "Demo merchant" }, admin);
    demo = { merchantId: created.merchant.id, apiKey: created.api_key };
  }
  // A data directory from before the dashboard gets its owner now.
  demo = { ...demo, owner: await demoOwner(transport, demo.merchantId) };
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(path, JSON.stringify(demo, null, 2), { mode: 0o600 });
  await chmod(path, 0o600);
  return demo;
}

/** Invites the owner and accepts the invitation at once, with a random password. */
async function demoOwner(transport: Transport, merchantId: string): Promise<{ email: string; password: string }> {
  const email = `owner-${merchantId.slice(4, 12)}@demo.example`;
  const password = randomToken(12);
  const invited = await transport.call(inviteMerchantUserOp, { merchant_id: merchantId, email, role: "owner" }, admin);
  await transport.call(acceptInvitationOp, { token: invited.invitation_token, password }, admin);
  return { email, password };
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
