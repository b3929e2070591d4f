import { hkdfSync, randomBytes } from "node:crypto";
import { DuplicateKeyError, type Store } from "@payrail/store";

/** identity's derived keys: the id of the generated one (embedded mode) and the HKDF info. */
const KEYS = {
  verificationCode: { id: "verification_code_hmac", info: "payrail/identity/verification-code" },
  totpSeal: { id: "totp_seal", info: "payrail/identity/totp-seal" },
} as const;

/**
 * The HMAC key of verification codes. Derived from SECRETS_KEY when one is configured, so a
 * copy of the database alone does not reveal live codes. Without it (embedded development
 * mode) a random key is made once and kept in identity's own collection, where every instance
 * finds the same one.
 */
export function loadCodeKey(store: Store, secretsKey: string | Buffer | undefined): Promise<Buffer> {
  return loadDerivedKey(store, secretsKey, KEYS.verificationCode);
}

/** The key that seals TOTP secrets (docs/decisions/0052-dashboard-two-factor-and-reset.md), made the same way. */
export function loadTotpKey(store: Store, secretsKey: string | Buffer | undefined): Promise<Buffer> {
  return loadDerivedKey(store, secretsKey, KEYS.totpSeal);
}

async function loadDerivedKey(store: Store, secretsKey: string | Buffer | undefined, key: { id: string; info: string }): Promise<Buffer> {
  if (secretsKey && secretsKey.length > 0) return Buffer.from(hkdfSync("sha256", secretsKey, "", key.info, 32));
  const keys = store.collection<{ _id: string; key: string }>("identity_keys");
  const fresh = randomBytes(32).toString("base64");
  let doc: { key: string } | null;
  try {
    doc = await keys.findOneAndUpdate({ _id: key.id }, { $setOnInsert: { key: fresh } }, { upsert: true });
  } catch (err) {
    // Two instances started together and the other one inserted first.
    if (!(err instanceof DuplicateKeyError)) throw err;
    doc = await keys.findOne({ _id: key.id });
  }
  if (!doc) throw new Error(`identity: the ${key.id} key could not be stored`);
  return Buffer.from(doc.key, "base64");
}
