import { pino, type Logger } from "pino";
import PinoPretty from "pino-pretty";
import { redactUrl } from "./redact-url.ts";

export type { Logger };

/**
 * Paths pino blanks out wherever they appear: credentials in headers and bodies, codes,
 * tokens and provider secrets. Secrets must never reach a log line.
 */
export const REDACT_PATHS = [
  "req.headers.authorization",
  'req.headers["api-key"]',
  'req.headers["link-token"]',
  'req.headers["x-admin-token"]',
  // The portal's and the dashboard's session and CSRF cookies.
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "*.apiKey",
  "*.api_key",
  "*.authToken",
  "*.auth_token",
  "*.token",
  "*.linkToken",
  "*.link_token",
  "*.code",
  "*.verification_code",
  "*.public_token",
  "*.access_token",
  "*.accessToken",
  "*.secret",
  "*.password",
  "*.session_token",
  "*.invitation_token",
  "*._csrf",
  "apiKey",
  "authToken",
  "token",
];

/**
 * The process's logger. By default it writes to stdout through an asynchronous pino
 * destination: a log call only appends to a buffer, and the buffer goes out in one write
 * while the previous write is in flight, so logging never blocks a request on a slow pipe.
 * Lines still buffered when the process exits are written by `flushLogger` (graceful stop)
 * and, for any other `process.exit`, by pino's own exit hook. A given `destination` (tests)
 * is written synchronously, as before.
 *
 * `format`: JSON lines for machines; on a terminal (`auto`) or with `pretty`, pino-pretty's
 * readable lines, written synchronously (a person is reading; nothing is lost at exit).
 * `name` is the `service` of every line that has none of its own (a child's binding or the
 * line's own field wins): the process's services, so no line is anonymous.
 */
export function createLogger(
  options: { level?: string; name?: string; destination?: NodeJS.WritableStream; format?: "auto" | "pretty" | "json" } = {},
): Logger {
  const { name } = options;
  const opts: pino.LoggerOptions = {
    level: options.level ?? "info",
    base: {},
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    serializers: { url: redactUrl },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...(name ? { mixin: (line: object, _level: number, logger: Logger) => serviceOf(line, logger, name) } : {}),
  };
  const format = options.format ?? "auto";
  const pretty = format === "pretty" || (format === "auto" && !options.destination && process.stdout.isTTY === true);
  const destination = pretty
    ? PinoPretty({
        destination: options.destination ?? 1,
        colorize: !options.destination && process.stdout.isTTY === true,
        sync: true,
        singleLine: true,
        // Only `err` holds Error objects here (pino's convention): an `error` field is data
        // (a failure reason, or null) and stays on its line instead of one of its own.
        errorLikeObjectKeys: ["err"],
        ignore: "pid,hostname,service",
        messageFormat: "{service}: {msg}",
        translateTime: "SYS:HH:MM:ss.l",
      })
    : options.destination
      ? (options.destination as pino.DestinationStream)
      : pino.destination({ dest: 1, sync: false });
  return pino(opts, destination);
}

function serviceOf(line: object, logger: Logger, name: string): object {
  return "service" in line || "service" in logger.bindings() ? {} : { service: name };
}

/**
 * Writes out what the logger still buffers and resolves once it is on its file descriptor
 * (or after `timeoutMs`). Ends the destination: call it last, just before the process exits.
 * Loggers with another destination resolve at once.
 */
export async function flushLogger(logger: Logger, timeoutMs = 2_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (!isSonicBoom(stream) || stream.destroyed) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // `end` waits for the write in flight, writes the rest, then emits "close" (stdout stays open).
    new Promise<void>((resolve) => {
      stream.once("close", () => resolve());
      stream.once("error", () => resolve());
      stream.end();
    }),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}

interface SonicBoomLike {
  destroyed: boolean;
  end(): void;
  once(event: string, listener: () => void): unknown;
  flushSync(): void;
}

function isSonicBoom(stream: unknown): stream is SonicBoomLike {
  return typeof stream === "object" && stream !== null && typeof (stream as SonicBoomLike).flushSync === "function";
}

/** A logger that writes nothing (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
