/**
 * One embedded Payrail process with identity and the ledger, reduced to what the audit log's
 * crash test needs: the embedded store under DATA_DIR and the in-process bus with its durable
 * queues, as `payrail start` wires them, under the fixed SECRETS_KEY the parent gives.
 *
 * MODE=write  creates a merchant, then has the admin generate it a key (an audited change), with
 *             the relay's publish of audit entries stalled: STALL=before holds it before the bus
 *             gets the event, STALL=after once the bus holds it but before the relay marks it
 *             sent. Prints `merchant <id>`, `key <prefix>` and `stalled <event id>`; the parent
 *             SIGKILLs it then.
 * MODE=count  starts normally, waits for the ledger to store MERCHANT's entry of key PREFIX and
 *             every outbox to drain, then a moment more, and prints `entries <n>`.
 */
import { createMerchantOp, generateApiKeyOp, type DomainEvent } from "@payrail/contracts";
import { createInProcessTransport, type Transport } from "@payrail/messaging";
import { loadConfig, silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, withIndexCheck } from "@payrail/store";
import { startServices } from "../../bin/wiring.ts";

const logger = silentLogger();
const store = withIndexCheck(createEmbeddedStore({ dir: process.env.DATA_DIR!, logger }), { mode: "enforce" });
const bus = createInProcessTransport({ logger });
const config = loadConfig({ SECRETS_KEY: process.env.SECRETS_KEY! });

if (process.env.MODE === "write") {
  const stall = process.env.STALL;
  const transport: Transport = {
    ...bus,
    async publish(event: DomainEvent) {
      if (!event.type.startsWith("audit_entry.")) return bus.publish(event);
      if (stall === "after") await bus.publish(event);
      console.log(`stalled ${event.id}`);
      await new Promise(() => undefined); // the crash comes first
    },
  };
  await startServices(["identity", "ledger"], { config, logger, transport, store });
  const admin = { requestId: "crash-test", principal: { kind: "admin" as const }, clientIp: "192.0.2.10" };
  const { merchant } = await bus.call(createMerchantOp, { name: "Crash Inc" }, admin);
  console.log(`merchant ${merchant.id}`);
  const key = await bus.call(generateApiKeyOp, { merchant_id: merchant.id }, admin);
  console.log(`key ${key.key_prefix}`);
} else {
  await startServices(["identity", "ledger"], { config, logger, transport: bus, store });
  const entries = store.collection<{ _id: string; merchantId: string; object: { id: string } }>("audit_log");
  const keys = store.collection<{ _id: string; merchantId: string; prefix: string; outboxPending?: boolean }>("api_keys");
  const mine = async () => (await entries.find({ merchantId: process.env.MERCHANT! })).filter((e) => e.object.id === process.env.PREFIX);
  for (;;) {
    const key = await keys.findOne({ merchantId: process.env.MERCHANT!, prefix: process.env.PREFIX! });
    if (key?.outboxPending === false && (await mine()).length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Anything delivered twice would be stored by now.
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(`entries ${(await mine()).length}`);
}
