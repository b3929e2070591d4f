import type { FastifyBaseLogger } from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;

type LogMethod = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
const METHODS: LogMethod[] = ["fatal", "error", "warn", "info", "debug", "trace"];

/**
 * fastify gives every request a child logger (`request.log`), and a pino child costs a bindings
 * serialisation with redaction each time: about 5% of a Get Checkout's CPU in the profile.
 * Most requests never log through it (the one line per request goes through the root logger),
 * so this stands in for the child and makes the real one only when a line at an enabled level
 * is written.
 */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  let real: FastifyBaseLogger | undefined;
  const child = (): FastifyBaseLogger => (real ??= parent.child(bindings, options));
  // fastify's logger type leaves out pino's isLevelEnabled, which the root logger (pino) has.
  const enabled = (level: string): boolean => ((real ?? parent) as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level);
  const logger = {
    get level() {
      return real?.level ?? parent.level;
    },
    set level(level: string) {
      child().level = level;
    },
    silent: () => undefined,
    // A child of this child (the auth hooks add the merchant) stays lazy: same bindings, merged.
    child: (more: Bindings, moreOptions?: ChildLoggerOptions) =>
      real || moreOptions ? child().child(more, moreOptions) : lazyChildLogger(parent, { ...bindings, ...more }, options),
    isLevelEnabled: enabled,
  } as Record<string, unknown>;
  for (const method of METHODS) {
    logger[method] = (...args: unknown[]) => {
      if (!enabled(method)) return;
      (child()[method] as (...a: unknown[]) => void)(...args);
    };
  }
  return logger as unknown as FastifyBaseLogger;
}
