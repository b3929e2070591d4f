import { requireMerchantWriter } from "@payrail/contracts";
import { auditEvents, prefixedHexId, runScopedHexId, type AuditMeta } from "@payrail/runtime";
import { reserveEndpoint } from "./endpoint-limit.ts";
import { newSigningSecret } from "./signing-secret.ts";
import { toWebhookEndpoint, type EndpointDoc } from "./webhook-endpoint.entity.ts";
import { urlRules, type WebhooksDeps } from "./webhooks.deps.ts";

/**
 * Registers an endpoint after the URL check (live: https to public addresses only; sandbox:
 * private ones only when allowed) and within the merchant's 16. The secret is sealed at rest
 * and answered this once. The endpoint's id derives from the call's run id: a second run of the
 * call (after its first runner stalled) meets the first's endpoint and answers it, with its
 * secret, rather than registering a second one. The audit entry rides the insert.
 */
export async function createWebhookEndpoint(
  deps: WebhooksDeps,
  meta: AuditMeta,
  input: { url: string; enabled_events: string[]; description?: string | undefined },
  runId?: string,
) {
  const { merchantId } = requireMerchantWriter(meta.principal);
  await deps.urlGuard.check(input.url, urlRules(deps));
  await reserveEndpoint(deps, merchantId);
  const id = runId === undefined ? prefixedHexId("we_") : runScopedHexId("we_", `webhook_endpoint\n${merchantId}\n${runId}`);
  const secret = newSigningSecret();
  const at = deps.now().toISOString();
  const doc: EndpointDoc = {
    _id: id,
    merchantId,
    url: input.url,
    enabledEvents: [...new Set(input.enabled_events)],
    description: input.description ?? null,
    status: "enabled",
    livemode: deps.livemode,
    secret: deps.secretBox.seal(secret, id),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
  };
  let stored: typeof doc;
  let inserted: boolean;
  try {
    const audit = auditEvents(meta, { service: "webhooks", merchantId, action: "webhook_endpoint.created", object: { type: "webhook_endpoint", id }, at, livemode: deps.livemode });
    ({ inserted, doc: stored } = await deps.endpoints.insert(doc, audit));
  } catch (err) {
    await deps.quotas.release(merchantId, deps.now().toISOString());
    throw err;
  }
  // A second run of the call found the first's endpoint: its place was counted by the first run.
  if (!inserted) await deps.quotas.release(merchantId, deps.now().toISOString());
  else deps.outbox.written();
  return { ...toWebhookEndpoint(stored), secret: inserted ? secret : deps.secretBox.open(stored.secret, stored._id) };
}
