import type { Db } from "mongodb";

/** What answered on the MongoDB wire; FerretDB needs the adapter's workarounds. */
export interface ServerFlavour {
  ferretdb: boolean;
  version: string;
}

/**
 * Asks `buildInfo`. FerretDB reports a MongoDB version for compatibility and adds its own
 * `ferretdbVersion` field, which is what tells the two apart.
 */
export async function detectServerFlavour(db: Db): Promise<ServerFlavour> {
  const info = await db.admin().command({ buildInfo: 1 });
  const ferret: unknown = info.ferretdbVersion;
  return { ferretdb: ferret !== undefined, version: String(ferret ?? info.version) };
}
