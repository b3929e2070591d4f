import { auditEvents, nowIso, prefixedHexId, runScopedHexId, type AuditMeta } from "@payrail/runtime";
import { toMerchantView } from "./merchant.entity.ts";
import { issueApiKey, type IssueKeyDeps } from "./generate-api-key.use-case.ts";
import type { MerchantView } from "@payrail/contracts";

/**
 * Creates a merchant with its first API key; the key is shown here once and never again. With
 * the call's run id, the merchant's id and key derive from it: a second run of the same call
 * finds the first's merchant and key and answers them. The merchant's insert carries its
 * `merchant.created` entry and the key's its `api_key.created`, so a second run records neither again.
 */
export async function createMerchant(
  deps: IssueKeyDeps,
  meta: AuditMeta,
  input: { name: string; destination_funding_source?: string | undefined; payout_funding_source?: string | undefined },
  runId?: string,
): Promise<{ merchant: MerchantView; api_key: string; key_prefix: string }> {
  const created = {
    _id: runId === undefined ? prefixedHexId("mer_") : runScopedHexId("mer_", `merchant\n${runId}`),
    name: input.name,
    destinationFundingSource: input.destination_funding_source ?? null,
    payoutFundingSource: input.payout_funding_source ?? null,
    createdAt: nowIso(),
  };
  const audit = auditEvents(meta, { service: "identity", merchantId: created._id, action: "merchant.created", object: { type: "merchant", id: created._id }, at: created.createdAt, livemode: deps.livemode });
  const inserted = await deps.merchants.insertMerchant(created, audit);
  if (inserted && audit.length > 0) deps.events.written();
  const merchant = inserted ? created : ((await deps.merchants.findMerchant(created._id)) ?? created);
  const key = await issueApiKey(deps, merchant._id, runId, meta);
  return { merchant: toMerchantView(merchant), api_key: key.api_key, key_prefix: key.key_prefix };
}
