import { randomBytes } from "node:crypto";

/** A MongoDB for test suites, or the reason there is none. */
export type MongoTestServer =
  | { url: string; skipReason?: undefined; stop(): Promise<void> }
  | { url?: undefined; skipReason: string; stop(): Promise<void> };

const MONGO_IMAGE = "mongo:8";

/**
 * Finds the MongoDB a suite runs against (the same rules as `amqpTestUrl` in
 * `@payrail/messaging/testing`):
 * 1. `MONGODB_URL` when set (CI, a local server or FerretDB, docker compose);
 * 2. else, with `REQUIRE_INFRA=1`, throws, so the suite fails instead of silently skipping;
 * 3. else a throwaway testcontainers MongoDB when a container engine is reachable;
 * 4. else none: `skipReason` says why (also printed) and the suite should skip.
 *
 * Call it once per test file at top level, use a `uniqueTestDbName()` database, drop it
 * (`store.drop()`) and `stop()` in `afterAll`.
 */
export async function mongoTestUrl(): Promise<MongoTestServer> {
  const fromEnv = process.env["MONGODB_URL"];
  if (fromEnv) return { url: fromEnv, stop: async () => undefined };
  if (process.env["REQUIRE_INFRA"] === "1") {
    throw new Error("REQUIRE_INFRA=1 but MONGODB_URL is not set: MongoDB suites cannot run");
  }
  try {
    // Imported lazily: testcontainers is a root devDependency and only tests get here.
    const { MongoDBContainer } = await import("@testcontainers/mongodb");
    const container = await new MongoDBContainer(MONGO_IMAGE).start();
    // The container runs a one-node replica set under a name the host cannot resolve.
    const url = `${container.getConnectionString()}?directConnection=true`;
    return { url, stop: async () => void (await container.stop()) };
  } catch (err) {
    const skipReason = `MongoDB suites skipped: MONGODB_URL is unset and testcontainers failed (${(err as Error).message})`;
    console.warn(skipReason);
    return { skipReason, stop: async () => undefined };
  }
}

/** A fresh database name per test file run, so parallel files and reruns never share data. */
export function uniqueTestDbName(prefix = "payrail_test"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}
