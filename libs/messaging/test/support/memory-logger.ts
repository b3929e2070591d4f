import { Writable } from "node:stream";
import { createLogger, type Logger } from "@payrail/runtime";

/** A real pino logger whose lines are kept in memory, to assert on what gets logged. */
export function memoryLogger(): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return { logger: createLogger({ level: "info", destination }), lines: () => chunks.join("") };
}
