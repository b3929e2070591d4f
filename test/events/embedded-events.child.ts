/**
 * One embedded Payrail process, reduced to what the crash test needs: the embedded store under
 * DATA_DIR, the in-process bus with its durable queues (as `payrail start` wires them), an
 * outbox relay on `orders`, and a `ledger` subscriber.
 *
 * MODE=hang   writes an order whose outbox holds EVENT (JSON), lets the relay publish it, and
 *             prints `handling <id>` when the handler starts and `marked` once the outbox is
 *             emptied (the handoff's wait passed and a copy was kept); the handler never
 *             finishes (the parent SIGKILLs this process).
 * MODE=handle subscribes with a handler that records the event in `ledger_applied` and prints
 *             `handled <id>`.
 * DURABLE=0   leaves the durable queues out, to show what the crash loses without them.
 * HANDOFF_WAIT_MS the bus's wait for a handler before it keeps a copy (default: the transport's).
 */
import type { DomainEvent } from "@payrail/contracts";
import { createInProcessTransport } from "@payrail/messaging";
import { silentLogger } from "@payrail/runtime";
import { createEmbeddedStore, createEventDeadLetters, createEventQueues, insertWithEvents, OutboxRelay, withIndexCheck, type OutboxFields } from "@payrail/store";

const logger = silentLogger();
const dataDir = process.env.DATA_DIR!;
const mode = process.env.MODE;
const store = withIndexCheck(createEmbeddedStore({ dir: dataDir, logger }), { mode: "enforce" });
const handoffWaitMs = process.env.HANDOFF_WAIT_MS ? Number(process.env.HANDOFF_WAIT_MS) : undefined;
const transport = createInProcessTransport({ logger, handoffWaitMs });
const queues = process.env.DURABLE === "0" ? undefined : await createEventQueues(store);
await transport.useEventStores({ deadLetters: await createEventDeadLetters(store), ...(queues ? { queues } : {}) });

const orders = store.collection<{ _id: string } & OutboxFields>("orders");
const relay = new OutboxRelay({ store, collections: ["orders"], logger, pollMs: 50, publish: (e) => transport.publish(e as DomainEvent) });
await relay.start();

if (mode === "hang") {
  await transport.subscribe("ledger", ["refund.*"], async (event) => {
    console.log(`handling ${event.id}`);
    await new Promise(() => undefined); // the crash comes first
  });
  const event = JSON.parse(process.env.EVENT!) as DomainEvent;
  await orders.insertOne(insertWithEvents({ _id: "order-1" }, [event]));
  relay.notify();
  for (;;) {
    if ((await orders.findOne({ _id: "order-1" }))?.outboxPending === false) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  console.log("marked");
} else {
  const applied = store.collection<{ _id: string }>("ledger_applied");
  await transport.subscribe("ledger", ["refund.*"], async (event) => {
    await applied.findOneAndUpdate({ _id: event.id }, { $set: { at: new Date().toISOString() } }, { upsert: true });
    console.log(`handled ${event.id}`);
  });
  console.log("subscribed");
}
