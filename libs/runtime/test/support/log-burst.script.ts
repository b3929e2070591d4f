/**
 * Child process of logger-flush.test.ts: logs `count` lines on the default (asynchronous)
 * stdout logger, then leaves by `mode`: "signal" (SIGTERM → stopOnSignals → flush → exit) or
 * "exit" (a bare process.exit, covered by pino's exit hook).
 */
import { createLogger, stopOnSignals } from "../../src/index.ts";

const count = Number(process.argv[2]);
const mode = process.argv[3];
const logger = createLogger();
stopOnSignals([{ name: "part", stop: async () => void logger.info("part stopped") }], logger);
for (let i = 0; i < count; i++) logger.info({ i, pad: "x".repeat(200) }, "line");
if (mode === "signal") process.kill(process.pid, "SIGTERM");
else process.exit(0);
