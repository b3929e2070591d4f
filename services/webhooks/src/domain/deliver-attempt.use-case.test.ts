import { randomBytes } from "node:crypto";
import { SecretBox, silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "./deliver-attempt.use-case.ts";
import { toDeliveryAttempt, type AttemptDoc, type DeliveryDoc } from "./delivery.entity.ts";
import type { SendResult } from "./ports/webhook-sender.port.ts";
import type { EndpointDoc } from "./webhook-endpoint.entity.ts";
import type { EventDoc } from "./webhook-event.entity.ts";
import type { WebhooksDeps } from "./webhooks.deps.ts";

const AT = "2026-01-05T10:00:00.000Z";

/** One attempt of one delivery against a sender that answers `answer`; the attempt it records. */
async function attemptWith(answer: Omit<SendResult, "durationMs">): Promise<AttemptDoc> {
  const secretBox = new SecretBox(randomBytes(32));
  const endpoint: EndpointDoc = {
    _id: "we_1",
    merchantId: "mer_1",
    url: "http://receiver.example/hooks",
    enabledEvents: ["*"],
    description: null,
    status: "enabled",
    livemode: false,
    secret: secretBox.seal("whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0", "we_1"),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledReason: null,
    createdAt: AT,
    updatedAt: AT,
  };
  const event: EventDoc = { _id: "evt_1", merchantId: "mer_1", type: "refund.approved", group: "refund", createdAt: AT, livemode: false, body: "{}" };
  const delivery: DeliveryDoc = { _id: "evt_1.we_1", eventId: "evt_1", eventType: "refund.approved", endpointId: "we_1", merchantId: "mer_1", status: "pending", attempts: 0, dueAt: AT, leaseId: "l1", createdAt: AT, updatedAt: AT };
  const recorded: AttemptDoc[] = [];
  const deps = {
    endpoints: { find: async () => endpoint, markHealthy: async () => undefined, markFailing: async () => undefined },
    events: { find: async () => event },
    deliveries: { recordAttempt: async (doc: AttemptDoc) => void recorded.push(doc), finish: async () => true },
    sender: { send: async () => ({ ...answer, durationMs: 5 }) },
    secretBox,
    livemode: false,
    allowPrivateUrls: true,
    policy: { retryScheduleMs: [1_000], timeoutMs: 1_000, disableAfterMs: 3_600_000, leaseMs: 10_000 },
    stats: { count: () => undefined },
    logger: silentLogger(),
    now: () => new Date(AT),
  } as unknown as WebhooksDeps;
  await attemptDelivery(deps, delivery, "l1", { check: () => undefined });
  expect(recorded).toHaveLength(1);
  return recorded[0]!;
}

describe("attemptDelivery", () => {
  it("keeps the first 2 KiB of a public target's answer for the deliveries list", async () => {
    const attempt = await attemptWith({ httpStatus: 200, responseBody: "x".repeat(5_000), fromPublicAddress: true, error: null });
    expect(attempt.responseBody).toBe("x".repeat(2_048));
    expect(toDeliveryAttempt(attempt)).toMatchObject({ http_status: 200, response_body: "x".repeat(2_048) });
  });

  it.each([200, 500])("keeps only the status of a private target's answer (HTTP %i), never its body", async (httpStatus) => {
    const attempt = await attemptWith({ httpStatus, responseBody: '{"internal":"secret"}', fromPublicAddress: false, error: null });
    expect(attempt).toMatchObject({ httpStatus, responseBody: null, fromPublicAddress: false });
    expect(toDeliveryAttempt(attempt)).toMatchObject({ http_status: httpStatus, response_body: null });
  });

  it("shows no body of an attempt recorded before the answer's address was kept", () => {
    const legacy: AttemptDoc = {
      _id: "evt_1.we_1.1",
      deliveryId: "evt_1.we_1",
      endpointId: "we_1",
      eventId: "evt_1",
      eventType: "refund.approved",
      attempt: 1,
      ok: true,
      httpStatus: 200,
      durationMs: 3,
      error: null,
      responseBody: '{"internal":"secret"}',
      attemptedAt: AT,
      nextRetryAt: null,
    };
    expect(toDeliveryAttempt(legacy).response_body).toBeNull();
  });
});
