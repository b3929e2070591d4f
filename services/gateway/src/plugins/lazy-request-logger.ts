import type { FastifyBaseLogger } from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;

type LogMethod = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/**
 * fastify gives every request a child logger (`request.log`), and a pino child costs a bindings
 * serialisation with redaction each time: about 5% of a Get Checkout's CPU in the profile.
 * Most requests never log through it (the one line per request goes through the root logger),
 * so this stands in for the child and makes the real one only when a line at an enabled level
 * is written.
 */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChild(parent, bindings, options) as unknown as FastifyBaseLogger;
}

/** A class, not an object of closures: two per request, so its methods live on the prototype. */
class LazyChild {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made().level = level;
  }

  silent(): void {}

  /** A child of this child (the auth hooks add the merchant) stays lazy: same bindings, merged. */
  child(more: Bindings, moreOptions?: ChildLoggerOptions): FastifyBaseLogger {
    if (this.real || moreOptions) return this.made().child(more, moreOptions);
    // Object.assign, not `{ ...a, ...b }`: V8 builds a literal with two spreads on a slow path.
    return lazyChildLogger(this.parent, Object.assign({}, this.bindings, more), this.options);
  }

  isLevelEnabled(level: string): boolean {
    // fastify's logger type leaves out pino's isLevelEnabled, which the root logger (pino) has.
    return ((this.real ?? this.parent) as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }

  error(...args: unknown[]): void {
    this.write("error", args);
  }

  warn(...args: unknown[]): void {
    this.write("warn", args);
  }

  info(...args: unknown[]): void {
    this.write("info", args);
  }

  debug(...args: unknown[]): void {
    this.write("debug", args);
  }

  trace(...args: unknown[]): void {
    this.write("trace", args);
  }

  private write(method: LogMethod, args: unknown[]): void {
    if (!this.isLevelEnabled(method)) return;
    (this.made()[method] as (...a: unknown[]) => void)(...args);
  }

  private made(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }
}
