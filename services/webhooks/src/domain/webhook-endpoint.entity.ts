import type { WebhookEndpoint } from "@payrail/contracts";

export const ENDPOINT_ID = /^we_[0-9a-f]{32}$/;

/** A merchant's webhook endpoint (`_id` = `we_…`). Secrets are sealed (SecretBox), never plain. */
export interface EndpointDoc {
  _id: string;
  merchantId: string;
  url: string;
  enabledEvents: string[];
  description: string | null;
  status: "enabled" | "disabled";
  livemode: boolean;
  /** The signing secret, sealed with the endpoint id as context. */
  secret: string;
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  /** Since when every attempt failed (null after a success): past WEBHOOK_DISABLE_AFTER it is disabled. */
  failingSince: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toWebhookEndpoint(doc: EndpointDoc): WebhookEndpoint {
  return {
    id: doc._id,
    url: doc.url,
    enabled_events: doc.enabledEvents,
    description: doc.description,
    status: doc.status,
    livemode: doc.livemode,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
  };
}
