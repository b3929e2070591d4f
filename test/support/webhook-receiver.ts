import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers a request with: a status, or `hang` (never answers). */
export type Answer = number | "hang";

/**
 * A local webhook receiver on a random loopback port. `answer` decides each response (200
 * unless set); every request is kept, in order.
 */
export interface Receiver {
  url: string;
  received: Received[];
  answer: (request: Received, index: number) => Answer;
  /** The requests carrying this event (webhook-id). */
  of(eventId: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(path = "/hooks"): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const receiver: Receiver = {
    url: "",
    received,
    answer: () => 200,
    of: (eventId) => received.filter((r) => r.headers["webhook-id"] === eventId),
    close: async () => {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: Received = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(request);
      const answer = receiver.answer(request, received.length - 1);
      if (answer === "hang") {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "not now");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** Verifies a request with the `standardwebhooks` package, as a merchant's receiver would; throws when it does not verify. */
export function verify(secret: string, request: Received): unknown {
  const h = request.headers;
  return new Webhook(secret).verify(request.body, {
    "webhook-id": String(h["webhook-id"]),
    "webhook-timestamp": String(h["webhook-timestamp"]),
    "webhook-signature": String(h["webhook-signature"]),
  });
}
