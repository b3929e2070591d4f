import { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { createLogger } from "@payrail/runtime";
import { describe, expect, it, vi } from "vitest";
import { lazyChildLogger } from "./lazy-request-logger.ts";

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const root = createLogger({ level, destination: sink }) as unknown as FastifyBaseLogger;
  return { root, lines };
}

describe("lazyChildLogger", () => {
  it("makes no pino child until a line at an enabled level is written", () => {
    const { root } = capture("info");
    const spy = vi.spyOn(root, "child");
    const log = lazyChildLogger(root, { requestId: "req_1" }, {});
    log.debug("not written");
    log.child({ merchantId: "mer_1" }).trace("nor this");
    expect(spy).not.toHaveBeenCalled();
  });

  it("writes with every binding, its children's merged in, like a pino child", async () => {
    const { root, lines } = capture("info");
    const log = lazyChildLogger(root, { requestId: "req_1" }, {}).child({ merchantId: "mer_1" });
    log.info({ step: 1 }, "hello");
    log.warn("again");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ requestId: "req_1", merchantId: "mer_1", step: 1, msg: "hello", level: 30 });
    expect(lines[1]).toMatchObject({ requestId: "req_1", merchantId: "mer_1", msg: "again", level: 40 });
    expect(log.level).toBe("info");
  });
});
