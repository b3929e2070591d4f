import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { amqpTestUrl, testQueuePrefix } from "@payrail/messaging/testing";
import { silentLogger } from "@payrail/runtime";
import { withIndexCheck, type Store } from "@payrail/store";
import { createMongoStore } from "@payrail/store/mongo";
import { mongoTestUrl } from "@payrail/store/testing";
import { mailpitTestUrls } from "../../../test/support/mailpit.ts";
import { until } from "../../../test/support/until.ts";
import { NoticeRepository } from "../src/data-access/notice.repository.ts";
import { queuedNotice } from "./support/notice-fixtures.ts";

const broker = await amqpTestUrl();
const mongo = await mongoTestUrl();
const mailpit = await mailpitTestUrls();
const skipReason = broker.skipReason ?? mongo.skipReason ?? mailpit.skipReason;

/** The notices lease (DEFAULT_NOTICE_POLICY): a killed sender's notice is due again within it. */
const NOTICE_LEASE_MS = 30_000;

interface MailpitSummary {
  ID: string;
  MessageID: string;
}

/**
 * An SMTP relay in front of Mailpit that passes everything through, except on the connection
 * where it is armed: there, once the client has sent a whole message (the DATA phase's final
 * ".") and Mailpit has taken it, Mailpit's answer is held back. The sender is then exactly in the
 * window between "the provider has the message" and "the sender knows it": `held` resolves then.
 */
async function holdingRelay(target: URL): Promise<{ port: number; held: Promise<void>; close(): Promise<void> }> {
  let armed = true;
  let signal!: () => void;
  const held = new Promise<void>((resolve) => (signal = resolve));
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    const holdHere = armed;
    let afterData = false;
    let tail = "";
    let holding = false;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (!holdHere || holding) return;
      tail = (tail + chunk.toString("latin1")).slice(-4_096);
      if (!afterData && /\r\nDATA\r\n$|^DATA\r\n$/i.test(tail)) afterData = true;
      else if (afterData && tail.endsWith("\r\n.\r\n")) {
        holding = true;
        armed = false;
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      if (holding) return signal(); // Mailpit's 250 for the message: kept from the sender
      client.write(chunk);
    });
    const end = () => (client.destroy(), upstream.destroy());
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    held,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Issue 33's kill: a notices process (RabbitMQ, the MongoDB-wire store, email over SMTP to
 * Mailpit) is SIGKILLed while it sends a notice, after Mailpit took the message and before the
 * sender heard so. After a restart the notice is sent again (at least once), recorded sent once,
 * and every copy Mailpit holds carries the same Message-ID (the notice's id), so a mail client
 * shows one message.
 */
describe.skipIf(!!skipReason)("a notices process killed mid-send (RabbitMQ + MongoDB wire + Mailpit)", () => {
  const suffix = randomBytes(4).toString("hex");
  const dbName = `payrail_test_notices_kill_${suffix}`;
  const queuePrefix = testQueuePrefix();
  const address = `kill-mid-send-${suffix}@example.com`;
  const children: ChildProcess[] = [];
  let store: Store;
  let notices: NoticeRepository;
  let relay: Awaited<ReturnType<typeof holdingRelay>>;

  beforeAll(async () => {
    store = withIndexCheck(createMongoStore({ url: mongo.url!, dbName, logger: silentLogger() }), { mode: "enforce" });
    notices = new NoticeRepository(store);
    await notices.ensureIndexes();
    relay = await holdingRelay(new URL(mailpit.smtpUrl!));
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await relay?.close();
    await store?.drop().catch(() => undefined);
    await store?.close();
    await broker.stop();
    await mongo.stop();
  });

  /** One notices process, as test/faults/support/service-process.ts runs it, sending through the relay. */
  const startNotices = async () => {
    const script = fileURLToPath(new URL("../../../test/faults/support/service-process.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: {
        ...process.env,
        SERVICE: "notices",
        AMQP_URL: broker.url!,
        MONGODB_URL: mongo.url!,
        TEST_QUEUE_PREFIX: queuePrefix,
        TEST_DB: dbName,
        TEST_SECRETS_KEY: randomBytes(32).toString("base64"),
        SMTP_URL: `smtp://127.0.0.1:${relay.port}`,
        LOG_LEVEL: "warn",
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(child);
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += String(chunk)));
    await until(
      "the notices process to serve",
      () => {
        if (child.exitCode !== null) throw new Error(`notices process exited ${child.exitCode}`);
        return out.includes("ready");
      },
      60_000,
    );
    return child;
  };

  const copies = async () => {
    const reply = await fetch(`${mailpit.apiUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
    return ((await reply.json()) as { messages: MailpitSummary[] }).messages;
  };

  it("sends the notice again after the restart, records it sent once, and every copy has its Message-ID", async () => {
    const now = new Date().toISOString();
    const doc = queuedNotice(`evt_kill_${suffix}`, now, {
      merchantId: "mer_kill",
      to: "k•••@example.com",
      address,
      checkoutId: "chk_kill",
      transactionUuid: "sc-kill",
      subject: "Your payment to Kill Goods",
      body: "Paid $10.00 to Kill Goods.",
      html: "<p>Paid $10.00 to Kill Goods.</p>",
    });
    const first = await startNotices();
    expect(await notices.insert(doc)).toBe(true);

    await relay.held;
    first.kill("SIGKILL");
    await once(first, "exit");
    // Mailpit has the message; the notice is still queued under the dead process's claim.
    await until("Mailpit to hold the first copy", async () => (await copies()).length === 1);
    expect(await notices.find(doc._id)).toMatchObject({ status: "queued", attempts: 0, sentAt: null });

    await startNotices();
    await until("the notice to be recorded sent", async () => (await notices.find(doc._id))?.status === "sent", NOTICE_LEASE_MS + 30_000);
    const recorded = await notices.find(doc._id);
    expect(recorded).toMatchObject({ status: "sent", attempts: 1, leaseId: null, providerMessageId: `<${doc._id}@payrail>` });
    await until("Mailpit to hold the second copy", async () => (await copies()).length === 2);
    const ids = (await copies()).map((m) => m.MessageID);
    expect(ids).toEqual([`${doc._id}@payrail`, `${doc._id}@payrail`]);
  }, 120_000);
});
