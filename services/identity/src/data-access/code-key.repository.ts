import { hkdfSync, randomBytes } from "node:crypto";
import { DuplicateKeyError, type Store } from "@payrail/store";

const KEY_ID = "verification_code_hmac";
const HKDF_INFO = "payrail/identity/verification-code";

/**
 * The HMAC key of verification codes. Derived from SECRETS_KEY when one is configured, so a
 * copy of the database alone does not reveal live codes. Without it (embedded development
 * mode) a random key is made once and kept in identity's own collection, where every instance
 * finds the same one.
 */
export async function loadCodeKey(store: Store, secretsKey: string | Buffer | undefined): Promise<Buffer> {
  if (secretsKey && secretsKey.length > 0) return Buffer.from(hkdfSync("sha256", secretsKey, "", HKDF_INFO, 32));
  const keys = store.collection<{ _id: string; key: string }>("identity_keys");
  const fresh = randomBytes(32).toString("base64");
  let doc: { key: string } | null;
  try {
    doc = await keys.findOneAndUpdate({ _id: KEY_ID }, { $setOnInsert: { key: fresh } }, { upsert: true });
  } catch (err) {
    // Two instances started together and the other one inserted first.
    if (!(err instanceof DuplicateKeyError)) throw err;
    doc = await keys.findOne({ _id: KEY_ID });
  }
  if (!doc) throw new Error("identity: the verification-code key could not be stored");
  return Buffer.from(doc.key, "base64");
}
