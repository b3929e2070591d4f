import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const ALGORITHM = "aes-256-gcm";
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value could not be opened: wrong key, wrong context, or tampered with. */
export class SecretBoxError extends Error {
  override readonly name = "SecretBoxError";
}

/**
 * Encrypts secrets at rest (provider credentials, webhook signing secrets) with AES-256-GCM (SECRETS_KEY): a random 12-byte IV per
 * value and a 16-byte tag, so a changed byte or a wrong key fails instead of decrypting to
 * garbage. The `context` (the record's id) is authenticated too, so a sealed value copied onto
 * another record does not open there. Format: `v1.<iv>.<tag>.<ciphertext>`, base64url parts;
 * the version leaves room for key rotation.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("the secrets key must be 32 bytes");
    this.key = Buffer.from(key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
  }

  open(sealed: string, context: string): string {
    const parts = sealed.split(".");
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError("not a sealed secret of this version");
    const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, "base64url")) as [Buffer, Buffer, Buffer];
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError("sealed secret is malformed");
    const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretBoxError("sealed secret failed authentication (wrong key, wrong context or tampered)");
    }
  }
}
