import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "@payrail/runtime";
import { embeddedStoreHoldsData } from "@payrail/store";

const FILE = "secrets.key";
const HOW = "base64 of 32 random bytes, e.g. `openssl rand -base64 32`";

/**
 * The key that encrypts provider tokens at rest (docs/guide/operator.md, Configuration). SECRETS_KEY when set. Without it,
 * embedded mode (no MONGODB_URL) keeps a generated key in DATA_DIR/secrets.key (mode 0600) and
 * reuses it on every start, beside the data it protects; with MONGODB_URL the data is shared
 * with other processes, which must all use one key, so SECRETS_KEY is required.
 *
 * A key is made only when `create` says so (`payrail start`) and DATA_DIR holds no data yet: a
 * data directory with data but no key file was sealed with a key given in the environment, and
 * a fresh key would only make its secrets unreadable (docs/decisions/0007-secrets-key-only-for-new-data.md).
 * Then it refuses, writing nothing.
 */
export async function resolveSecretsKey(config: Pick<Config, "SECRETS_KEY" | "MONGODB_URL" | "DATA_DIR">, options: { create: boolean }): Promise<Buffer> {
  if (config.SECRETS_KEY) return decodeKey(config.SECRETS_KEY, "SECRETS_KEY");
  if (config.MONGODB_URL) throw new Error(`SECRETS_KEY is required when MONGODB_URL is set (${HOW})`);
  const path = join(config.DATA_DIR, FILE);
  const saved = await readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return null;
    throw err;
  });
  if (saved !== null) return decodeKey(saved.trim(), path);
  if (embeddedStoreHoldsData(config.DATA_DIR)) {
    throw new Error(
      `${config.DATA_DIR} holds Payrail data but no ${FILE}, and SECRETS_KEY is not set: its secrets are sealed with a key this process does not have. ` +
        `Set SECRETS_KEY to the key its server uses (or put that key back in ${path}); no key was written`,
    );
  }
  if (!options.create) {
    throw new Error(`${config.DATA_DIR} has no ${FILE} and SECRETS_KEY is not set: \`payrail start\` makes one on its first start (or set SECRETS_KEY, ${HOW})`);
  }
  await mkdir(config.DATA_DIR, { recursive: true });
  const key = randomBytes(32);
  // Written whole to a private temporary file, then linked into place: link() fails if the
  // file exists, so racing starts never see half a file and all end up with the first key.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temporary, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return decodeKey((await readFile(path, "utf8")).trim(), path);
  } finally {
    await unlink(temporary);
  }
  return key;
}

function decodeKey(text: string, source: string): Buffer {
  // Buffer.from skips what is not base64, so the text's form is checked, not only the length.
  const key = /^[A-Za-z0-9+/]{43}=?$/.test(text) ? Buffer.from(text, "base64") : null;
  if (key?.length !== 32) throw new Error(`${source} must be ${HOW}`);
  return key;
}
