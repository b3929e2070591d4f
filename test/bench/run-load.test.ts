import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { getPath, runLoad } from "../../bench/http/load.ts";

/**
 * bench:http's rows (docs/decisions/0057-bench-warm-connections.md): a row runs on the warm-up's
 * connections and starts only once each of them has been answered, so that a server slow to take
 * new connections shows in neither its throughput nor its latency. The server here answers each
 * connection's first request late, later for each connection, as a saturated process that
 * accepts one connection per loop turn does, and every later request at once.
 */
describe("a bench row's load", () => {
  const FIRST_ANSWER_MS = 400;
  const STAGGER_MS = 40;
  const CONNECTIONS = 8;
  let server: Server | undefined;

  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it("keeps the warm-up's connections and counts from when each was answered once", async () => {
    let connections = 0;
    let firstAnswers = 0;
    server = createServer((request, response) => {
      const socket = request.socket as typeof request.socket & { answered?: boolean };
      if (socket.answered) return void response.end("ok");
      socket.answered = true;
      const late = FIRST_ANSWER_MS + STAGGER_MS * connections;
      setTimeout(() => {
        firstAnswers += 1;
        response.end("ok");
      }, late);
    });
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;

    const answeredWhenMeasuring: number[] = [];
    const result = await runLoad(`http://127.0.0.1:${port}`, getPath("/"), { connections: CONNECTIONS, warmupS: 0.05, durationS: 0.5 }, () =>
      answeredWhenMeasuring.push(firstAnswers),
    );

    expect(answeredWhenMeasuring).toEqual([CONNECTIONS]);
    expect(connections).toBe(CONNECTIONS);
    expect(result.errors).toBe(0);
    expect(result.requests).toBeGreaterThan(CONNECTIONS);
    // None of the late first answers is in the row.
    expect(result.p99).toBeLessThan(FIRST_ANSWER_MS);
  });
});
