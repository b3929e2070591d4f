import { createHmac } from "node:crypto";
import { silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { DwollaTransferAdapter } from "../../src/adapters/dwolla/dwolla.adapter.ts";
import { verifyDwollaSignature } from "../../src/adapters/dwolla/dwolla-webhook.signature.ts";
import { parseWebhookEvent, toStatusEvent } from "../../src/adapters/dwolla/dwolla-webhook.transformers.ts";

const SECRET = "webhook-secret";
const API = "https://api-sandbox.dwolla.com";

/** Dwolla's documented webhook body for a transfer event. */
function transferEvent(topic: string, transferId = "CDB5F11F-62DF-E611-80EE-0AA34A9B2388") {
  return {
    id: "cac95329-9fa5-42f1-a4fc-c08af7b868fb",
    resourceId: transferId,
    topic,
    timestamp: "2017-01-20T22:45:12.790Z",
    _links: {
      self: { href: `${API}/events/cac95329-9fa5-42f1-a4fc-c08af7b868fb` },
      account: { href: `${API}/accounts/ad5f2162-404a-4c4c-994e-6ab6c3a13254` },
      resource: { href: `${API}/transfers/${transferId}` },
      customer: { href: `${API}/customers/e358a488-6699-4d79-bbfb-c5bf58100ea4` },
    },
    created: "2017-01-20T22:45:12.790Z",
  };
}

const sign = (body: string | Buffer, secret = SECRET) => createHmac("sha256", secret).update(body).digest("hex");

describe("Dwolla webhook signature", () => {
  const body = JSON.stringify(transferEvent("customer_transfer_completed"));

  it("accepts Dwolla's HMAC-SHA256 of the raw body, as a string or a Buffer, in either hex case", () => {
    expect(verifyDwollaSignature(SECRET, body, sign(body))).toBe(true);
    expect(verifyDwollaSignature(SECRET, Buffer.from(body), sign(body))).toBe(true);
    expect(verifyDwollaSignature(SECRET, body, sign(body).toUpperCase())).toBe(true);
  });

  it("refuses a tampered body", () => {
    expect(verifyDwollaSignature(SECRET, body.replace("completed", "failed"), sign(body))).toBe(false);
    expect(verifyDwollaSignature(SECRET, `${body} `, sign(body))).toBe(false);
  });

  it("refuses a signature made with another secret, and verifies nothing with an empty secret", () => {
    expect(verifyDwollaSignature(SECRET, body, sign(body, "other-secret"))).toBe(false);
    expect(verifyDwollaSignature("", body, sign(body, ""))).toBe(false);
  });

  it("answers false, never throws, for a missing or malformed header", () => {
    for (const header of [undefined, "", "not-hex", "zz".repeat(32), sign(body).slice(0, 62), `${sign(body)}00`, "sha256=" + sign(body)]) {
      expect(() => verifyDwollaSignature(SECRET, body, header)).not.toThrow();
      expect(verifyDwollaSignature(SECRET, body, header)).toBe(false);
    }
    expect(verifyDwollaSignature(SECRET, body, ["a"] as unknown as string)).toBe(false);
    expect(verifyDwollaSignature(SECRET, undefined as unknown as string, sign(body))).toBe(false);
  });

  it("is checked by the adapter with DWOLLA_WEBHOOK_SECRET, and fails closed when it is unset", () => {
    const adapter = (webhookSecret?: string) => new DwollaTransferAdapter({ key: "k", secret: "s", env: "sandbox", webhookSecret }, silentLogger());
    expect(adapter(SECRET).verifyWebhook(body, sign(body))).toBe(true);
    expect(adapter(SECRET).verifyWebhook(body, undefined)).toBe(false);
    expect(adapter(undefined).verifyWebhook(body, sign(body, ""))).toBe(false);
  });
});

describe("Dwolla webhook events", () => {
  it("reads a transfer event: event id, topic, transfer id (lower case) and timestamp", () => {
    expect(parseWebhookEvent(transferEvent("customer_transfer_completed"))).toEqual({
      eventId: "cac95329-9fa5-42f1-a4fc-c08af7b868fb",
      topic: "customer_transfer_completed",
      resourceId: "cdb5f11f-62df-e611-80ee-0aa34a9b2388",
      timestamp: "2017-01-20T22:45:12.790Z",
    });
    for (const topic of ["customer_bank_transfer_failed", "transfer_completed", "customer_transfer_cancelled"]) {
      expect(parseWebhookEvent(transferEvent(topic))?.topic).toBe(topic);
    }
  });

  it("falls back to resourceId and `created` when the link or timestamp is absent", () => {
    const { _links: _l, timestamp: _t, ...bare } = transferEvent("transfer_failed");
    expect(parseWebhookEvent(bare)).toMatchObject({ resourceId: "cdb5f11f-62df-e611-80ee-0aa34a9b2388", timestamp: "2017-01-20T22:45:12.790Z" });
  });

  it("answers null for events about other resources and for malformed bodies", () => {
    const customerCreated = { ...transferEvent("customer_created"), _links: { resource: { href: `${API}/customers/36e9dcb2` } } };
    expect(parseWebhookEvent(customerCreated)).toBeNull();
    const massPayment = { ...transferEvent("mass_payment_transfer_completed"), _links: { resource: { href: `${API}/mass-payments/x` } } };
    expect(parseWebhookEvent(massPayment)).toBeNull();
    for (const bad of [null, "text", 42, [], {}, { id: "e", topic: 7 }, { id: "e", topic: "transfer_completed" }]) {
      expect(parseWebhookEvent(bad)).toBeNull();
    }
    expect(parseWebhookEvent({ ...transferEvent("transfer_completed"), resourceId: "../x", _links: {} })).toBeNull();
  });

  it("becomes the neutral status event once the transfer was read back", () => {
    const event = parseWebhookEvent(transferEvent("customer_transfer_failed"))!;
    expect(toStatusEvent(event, { transferId: event.resourceId, status: "failed", failureCode: "R01" })).toEqual({
      eventId: event.eventId,
      transferId: "cdb5f11f-62df-e611-80ee-0aa34a9b2388",
      status: "failed",
      failureCode: "R01",
      occurredAt: "2017-01-20T22:45:12.790Z",
    });
  });
});
