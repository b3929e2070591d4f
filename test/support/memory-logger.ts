import { Writable } from "node:stream";
import { createLogger, type Logger } from "@payrail/runtime";

/**
 * A real pino logger (redaction included) writing into memory, for tests that read what was
 * logged: `text()` is everything written, `lines()` the parsed JSON lines.
 */
export function memoryLogger(level = "debug"): { logger: Logger; text(): string; lines<T = Record<string, unknown>>(): T[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  const text = () => chunks.join("");
  return {
    logger: createLogger({ level, destination }),
    text,
    lines: <T>() =>
      text()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as T),
  };
}
