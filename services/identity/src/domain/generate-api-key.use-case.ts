import { createHmac } from "node:crypto";
import { auditEvents, nowIso, type AuditMeta } from "@payrail/runtime";
import { newApiKey } from "./api-key.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";
import { requireMerchantRecord } from "./require-merchant.ts";

export interface IssueKeyDeps {
  merchants: MerchantsPort;
  livemode: boolean;
  /** The service's HMAC key: with a run id, the key it issues derives from both. */
  codeKey: Buffer;
  /** Told after a write that stored events (audit entries). */
  events: { written(): void };
}

/** Issues one more key; older keys keep working until revoked (rotation without downtime). */
export async function generateApiKey(
  deps: IssueKeyDeps,
  meta: AuditMeta,
  merchantId: string,
  runId?: string,
): Promise<{ api_key: string; key_prefix: string; livemode: boolean }> {
  await requireMerchantRecord(deps, merchantId);
  return issueApiKey(deps, merchantId, runId, meta);
}

/**
 * With the call's run id, the key derives from it under the service's secret key: a second run
 * of the same call (its first runner stalled past its lease) issues the very key the first did,
 * stored once, instead of a second key. The derivation is as secret as the key it uses. With
 * `meta`, the key's audit entry (its prefix, never the key) rides the insert.
 */
export async function issueApiKey(
  deps: IssueKeyDeps,
  merchantId: string,
  runId?: string,
  meta?: AuditMeta,
): Promise<{ api_key: string; key_prefix: string; livemode: boolean }> {
  const seed = runId === undefined ? undefined : createHmac("sha256", deps.codeKey).update(`api-key\n${merchantId}\n${runId}`).digest();
  const key = newApiKey(deps.livemode, seed);
  const at = nowIso();
  const change = { service: "identity", merchantId, action: "api_key.created", object: { type: "api_key", id: key.prefix }, at, livemode: key.livemode } as const;
  const audit = meta ? auditEvents(meta, change) : [];
  const inserted = await deps.merchants.insertKey({ _id: key.hash, merchantId, prefix: key.prefix, livemode: key.livemode, createdAt: at, revokedAt: null }, audit);
  if (inserted && audit.length > 0) deps.events.written();
  return { api_key: key.key, key_prefix: key.prefix, livemode: key.livemode };
}
