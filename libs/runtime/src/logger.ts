import { pino, type Logger } from "pino";

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
  "apiKey",
  "authToken",
  "token",
];

export function createLogger(options: { level?: string; name?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const opts = {
    level: options.level ?? "info",
    base: options.name ? { service: options.name } : {},
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return options.destination ? pino(opts, options.destination as pino.DestinationStream) : pino(opts);
}

/** A logger that writes nothing (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
