import { randomBytes } from "node:crypto";
import {
  createAmqpTransport,
  createInProcessBus,
  createInProcessTransport,
  type Transport,
} from "@payrail/messaging";
import { amqpTestUrl, testQueuePrefix } from "@payrail/messaging/testing";
import { silentLogger, type Logger } from "@payrail/runtime";
import { createEmbeddedStore, withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl } from "@payrail/store/testing";

/**
 * One way to run services in a test: a bus and a store. Every suite that drives services runs
 * once per variant: in-process bus + embedded store always, RabbitMQ + MongoDB whenever they
 * are reachable (and, with REQUIRE_INFRA=1, the suite fails if they are not).
 */
/**
 * The deadline of the tests' RPC calls: a deployment's default (RPC_TIMEOUT_MS), so a call that a
 * loaded test machine makes slow is given the time production gives it, not half of it.
 */
const RPC_DEADLINE_MS = 10_000;

export interface InfraVariant {
  name: string;
  /** Why the variant cannot run here; the suite skips it (never under REQUIRE_INFRA=1). */
  skipReason?: string;
  /** A new transport on this variant's bus (servers and clients get separate ones). */
  transport(): Promise<Transport>;
  /** The store shared by the services of one test file. */
  store(): Promise<Store>;
  /** Closes what the variant opened and drops its test database. */
  cleanup(): Promise<void>;
}

/** `logger` receives what the bus logs (every handled RPC), for tests that read logs. */
export function embeddedVariant(logger: Logger = silentLogger()): InfraVariant {
  const bus = createInProcessBus();
  const opened: { close(): Promise<void> }[] = [];
  let store: Store | undefined;
  return {
    name: "in-process bus + embedded store",
    async transport() {
      const t = await createInProcessTransport({ logger, bus, defaultTimeoutMs: RPC_DEADLINE_MS });
      opened.push(t);
      return t;
    },
    async store() {
      store ??= withIndexCheck(createEmbeddedStore({ logger }), { mode: "enforce" });
      return store;
    },
    async cleanup() {
      for (const o of opened.reverse()) await o.close();
      await store?.close();
    },
  };
}

export async function brokerVariant(): Promise<InfraVariant> {
  const logger = silentLogger();
  const broker = await amqpTestUrl();
  const mongo = await mongoTestUrl();
  const suffix = randomBytes(4).toString("hex");
  const queuePrefix = testQueuePrefix();
  const dbName = `payrail_test_${suffix}`;
  const opened: { close(): Promise<void> }[] = [];
  let store: Store | undefined;
  const skipReason = broker.skipReason ?? mongo.skipReason;
  return {
    name: "RabbitMQ + MongoDB",
    ...(skipReason ? { skipReason } : {}),
    async transport() {
      const t = await createAmqpTransport({ url: broker.url!, logger, queuePrefix, defaultTimeoutMs: RPC_DEADLINE_MS });
      opened.push(t);
      return t;
    },
    async store() {
      store ??= withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger }), { mode: "enforce" });
      return store;
    },
    async cleanup() {
      for (const o of opened.reverse()) await o.close();
      if (store) {
        await store.drop();
        await store.close();
      }
      await broker.stop();
      await mongo.stop();
    },
  };
}

/** Both variants, for `describe.each`. */
export async function infraVariants(): Promise<InfraVariant[]> {
  return [embeddedVariant(), await brokerVariant()];
}
