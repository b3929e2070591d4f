import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { WebhooksDeps } from "./webhooks.deps.ts";
import type { EndpointDoc } from "./webhook-endpoint.entity.ts";

/** A new endpoint secret: `whsec_` and 24 random bytes in base64, the Standard Webhooks form. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

/** The secrets that sign now: the current one, and the previous one for 24 h after a rotation. */
export function signingSecrets(deps: Pick<WebhooksDeps, "secretBox">, endpoint: EndpointDoc, now: Date): string[] {
  const secrets = [deps.secretBox.open(endpoint.secret, endpoint._id)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime()) {
    secrets.push(deps.secretBox.open(endpoint.previousSecret, endpoint._id));
  }
  return secrets;
}

/**
 * The Standard Webhooks headers for one attempt: `webhook-id` is the event id (the same on
 * every retry, the receiver's deduplication key); `webhook-signature` lists one `v1,<sig>`
 * per signing secret, separated by spaces, so a receiver holding either secret verifies it.
 */
export function webhookHeaders(secrets: readonly string[], eventId: string, at: Date, body: string): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(" "),
  };
}
