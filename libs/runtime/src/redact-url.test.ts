import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url.ts";

describe("redactUrl", () => {
  it("blanks phone numbers in paths, in whatever form a client wrote them", () => {
    expect(redactUrl("/api/sandbox/verification_codes/+14155552671")).toBe("/api/sandbox/verification_codes/[phone]");
    expect(redactUrl("/api/sandbox/verification_codes/%2B14155552671?x=1")).toBe("/api/sandbox/verification_codes/[phone]?x=1");
    expect(redactUrl("/api/admin/merchants/mer_0123456789abcdef0123456789abcdef/operators/14155552671")).toBe(
      "/api/admin/merchants/mer_0123456789abcdef0123456789abcdef/operators/[phone]",
    );
  });

  it("blanks credentials in queries and passwords in broker URLs, and keeps the rest", () => {
    expect(redactUrl("/api/x?link_token=abc&limit=2&api-key=sk_test_1&phone=%2B14155552671")).toBe(
      "/api/x?link_token=redacted&limit=2&api-key=redacted&phone=[phone]",
    );
    expect(redactUrl("amqp://guest:secret@127.0.0.1:5672/vh")).toBe("amqp://guest:redacted@127.0.0.1:5672/vh");
    expect(redactUrl("/api/merchants/checkout?limit=20")).toBe("/api/merchants/checkout?limit=20");
    expect(redactUrl("/api/merchants/checkout/chk_0123456789abcdef0123456789abcdef")).toBe("/api/merchants/checkout/chk_0123456789abcdef0123456789abcdef");
    expect(redactUrl(42)).toBe(42);
  });
});
