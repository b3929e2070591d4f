import { nowIso, prefixedHexId, runScopedHexId } from "@payrail/runtime";
import { toMerchantView } from "./merchant.entity.ts";
import { issueApiKey, type IssueKeyDeps } from "./generate-api-key.use-case.ts";
import type { MerchantView } from "@payrail/contracts";

/**
 * Creates a merchant with its first API key; the key is shown here once and never again. With
 * the call's run id, the merchant's id and key derive from it: a second run of the same call
 * finds the first's merchant and key and answers them.
 */
export async function createMerchant(
  deps: IssueKeyDeps,
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
  const merchant = (await deps.merchants.insertMerchant(created)) ? created : ((await deps.merchants.findMerchant(created._id)) ?? created);
  const key = await issueApiKey(deps, merchant._id, runId);
  return { merchant: toMerchantView(merchant), api_key: key.api_key, key_prefix: key.key_prefix };
}
