/**
 * Child process of logger-flush.test.ts: logs `count` lines on the default (asynchronous)
 * stdout logger, then leaves by `mode`: "signal" (SIGTERM → stopOnSignals → flush → exit),
 * "exit" (a bare process.exit, covered by pino's exit hook), or "stuck" (a part whose stop never
 * ends: the test's two SIGTERMs, the second of which must exit at once).
 */
import { createLogger, stopOnSignals } from "../../src/index.ts";

const count = Number(process.argv[2]);
const mode = process.argv[3];
const logger = createLogger();
const stop = mode === "stuck" ? () => new Promise<void>(() => logger.info("part stopping")) : async () => void logger.info("part stopped");
stopOnSignals([{ name: "part", stop }], logger, 60_000);
for (let i = 0; i < count; i++) logger.info({ i, pad: "x".repeat(200) }, "line");
if (mode === "signal") process.kill(process.pid, "SIGTERM");
else if (mode === "exit") process.exit(0);
else setInterval(() => undefined, 60_000);
