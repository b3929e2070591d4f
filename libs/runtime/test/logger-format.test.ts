import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.ts";

function sink() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const raw = () => chunks.join("").trim().split("\n");
  return { destination, raw, lines: () => raw().map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("createLogger", () => {
  it("names a service on every line: the process's, unless a child or the line names its own", () => {
    const { destination, lines, raw } = sink();
    const logger = createLogger({ name: "payments+refunds", destination, format: "json" });
    logger.info("process line");
    logger.child({ service: "payments" }).info("child line");
    logger.info({ service: "refunds" }, "own line");
    expect(lines().map((l) => [l.msg, l.service])).toEqual([
      ["process line", "payments+refunds"],
      ["child line", "payments"],
      ["own line", "refunds"],
    ]);
    // One field each: no duplicate "service" keys in the JSON text.
    for (const line of raw()) expect(line.match(/"service":/g), line).toHaveLength(1);
  });

  it("redacts phone numbers and tokens of any url field", () => {
    const { destination, lines } = sink();
    createLogger({ destination, format: "json" }).warn({ url: "/api/sandbox/verification_codes/+14155552671?token=abc" }, "x");
    expect(lines()[0]?.url).toBe("/api/sandbox/verification_codes/[phone]?token=redacted");
  });

  it("writes readable lines, not JSON, when asked for pretty (as on a terminal)", () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    createLogger({ name: "checkout", format: "pretty", destination }).info({ requestId: "req_1" }, "hello");
    const text = chunks.join("");
    expect(text).toMatch(/INFO.*checkout: hello.*requestId.*req_1/);
    expect(() => JSON.parse(text)).toThrow();
  });
});
