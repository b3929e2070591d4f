import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SecretBox, SecretBoxError } from "./secret-box.ts";

describe("SecretBox", () => {
  const box = new SecretBox(randomBytes(32));
  const secret = "access-sandbox-5cd6e1b1-1b3a-4a3b-9d4e-0f7c1a2b3c4d";

  it("opens what it sealed, and never shows the plaintext in the sealed form", () => {
    const sealed = box.seal(secret, "chk_1");
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(box.open(sealed, "chk_1")).toBe(secret);
  });

  it("uses a fresh IV each time, so equal secrets seal differently", () => {
    const a = box.seal(secret, "chk_1");
    const b = box.seal(secret, "chk_1");
    expect(a.split(".")[1]).not.toBe(b.split(".")[1]);
    expect(a).not.toBe(b);
  });

  it("refuses a sealed value with any part changed", () => {
    const sealed = box.seal(secret, "chk_1");
    const parts = sealed.split(".");
    for (const i of [1, 2, 3]) {
      const bytes = Buffer.from(parts[i]!, "base64url");
      bytes[0] = bytes[0]! ^ 0x01;
      const tampered = parts.map((p, j) => (j === i ? bytes.toString("base64url") : p)).join(".");
      expect(() => box.open(tampered, "chk_1"), `part ${i}`).toThrow(SecretBoxError);
    }
    expect(() => box.open(sealed.slice(0, -2), "chk_1")).toThrow(SecretBoxError);
    expect(() => box.open("v2" + sealed.slice(2), "chk_1")).toThrow(SecretBoxError);
    expect(() => box.open("garbage", "chk_1")).toThrow(SecretBoxError);
  });

  it("refuses a wrong key and a wrong context", () => {
    const sealed = box.seal(secret, "chk_1");
    expect(() => new SecretBox(randomBytes(32)).open(sealed, "chk_1")).toThrow(SecretBoxError);
    expect(() => box.open(sealed, "chk_2")).toThrow(SecretBoxError);
  });

  it("accepts only 32-byte keys", () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => new SecretBox(Buffer.alloc(0))).toThrow(/32 bytes/);
  });
});
