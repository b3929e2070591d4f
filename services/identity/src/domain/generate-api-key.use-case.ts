import { createHmac } from "node:crypto";
import { nowIso } from "@payrail/runtime";
import { newApiKey } from "./api-key.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

export interface IssueKeyDeps {
  merchants: MerchantsPort;
  livemode: boolean;
  /** The service's HMAC key: with a run id, the key it issues derives from both. */
  codeKey: Buffer;
}

/** Issues one more key; older keys keep working until revoked (rotation without downtime). */
export async function generateApiKey(
  deps: IssueKeyDeps,
  merchantId: string,
  runId?: string,
): Promise<{ api_key: string; key_prefix: string; livemode: boolean }> {
  await requireMerchantRecord(deps, merchantId);
  return issueApiKey(deps, merchantId, runId);
}

/**
 * With the call's run id, the key derives from it under the service's secret key: a second run
 * of the same call (its first runner stalled past its lease) issues the very key the first did,
 * stored once, instead of a second key. The derivation is as secret as the key it uses.
 */
export async function issueApiKey(
  deps: IssueKeyDeps,
  merchantId: string,
  runId?: string,
): Promise<{ api_key: string; key_prefix: string; livemode: boolean }> {
  const seed = runId === undefined ? undefined : createHmac("sha256", deps.codeKey).update(`api-key\n${merchantId}\n${runId}`).digest();
  const key = newApiKey(deps.livemode, seed);
  await deps.merchants.insertKey({
    _id: key.hash,
    merchantId,
    prefix: key.prefix,
    livemode: key.livemode,
    createdAt: nowIso(),
    revokedAt: null,
  });
  return { api_key: key.key, key_prefix: key.prefix, livemode: key.livemode };
}
