import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";

/** A pretty logger (as on a terminal) writing into memory. */
function prettyLogger() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return { logger: createLogger({ format: "pretty", destination, name: "payments" }), text: () => chunks.join("") };
}

describe("the readable log lines", () => {
  it("keep a data field named error on the line it belongs to, null or not", () => {
    const { logger, text } = prettyLogger();
    logger.info({ transactionUuid: "sc-1", status: "completed", error: null }, "transfer status applied");
    logger.info({ transactionUuid: "sc-2", status: "failed", error: "R01 insufficient funds" }, "transfer status applied");
    const lines = text().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/INFO: payments: transfer status applied .*"error":null/);
    expect(lines[1]).toContain('"error":"R01 insufficient funds"');
  });

  it("still print an Error under err with its stack", () => {
    const { logger, text } = prettyLogger();
    logger.warn({ err: new Error("store away") }, "retrying");
    expect(text()).toContain("store away");
    expect(text()).toMatch(/at .*logger\.test\.ts/);
  });
});
