import { defineConfig } from "vitest/config";

/**
 * Suites whose assertions bound how fast the system recovers (kills, outages, reconnects): they
 * run after the others (`npm test` runs the two projects in turn), two files at a time like the
 * rest, so their bounds hold beside one other fault suite. One at a time took 241 s against 134 s
 * on a fast 2-core machine, and would take CI past its 30 minutes on a slow one.
 */
const FAULT_SUITES = [
  "services/payments/test/kill-*.contract.test.ts",
  "services/notices/test/kill-*.contract.test.ts",
  // 100 concurrent get_processor_token: 6.4–6.6 s on FerretDB alone here, past 10 s beside
  // another suite's worker on the same two cores.
  "services/payments/test/get-processor-token.contract.test.ts",
  "services/webhooks/test/crash-recovery.contract.test.ts",
  "libs/messaging/test/amqp-resilience.test.ts",
  "test/events/embedded-crash.test.ts",
  "test/faults/**/*.test.ts",
];

/**
 * The rolling restart behind HAProxy (2 gateways, 2 replicas of the domain services, restarted
 * and killed one at a time under a steady load): about 2.5 minutes, one of the fault suites of
 * `npm test`; `npm run test:rolling` runs it by itself.
 */
const ROLLING_SUITES = ["test/faults/rolling-restart.test.ts"];

export default defineConfig({
  test: {
    // Suites share one broker and one database; files run in parallel workers but each test
    // uses its own queue and database names.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
    globalSetup: ["test/support/clean-broker.global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "main",
          // One module registry per worker for the whole run: each file re-evaluating every
          // service, fastify and the drivers cost more CPU than the tests on two cores (import
          // 386 s of worker time in a whole run against 44 s shared). Files keep no state in
          // modules between them (each test starts its own stack on its own names), and none
          // mocks a module (a module mock would reach only the first file to load it).
          isolate: false,
          include: ["libs/*/src/**/*.test.ts", "libs/*/test/**/*.test.ts", "apps/*/src/**/*.test.ts", "apps/*/test/**/*.test.ts", "services/*/src/**/*.test.ts", "services/*/test/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...FAULT_SUITES],
        },
      },
      // A project's maxWorkers is inherited from the root (2) and wins over the CLI's --maxWorkers.
      { extends: true, test: { name: "faults", include: FAULT_SUITES, exclude: ["**/node_modules/**"] } },
      { extends: true, test: { name: "rolling", include: ROLLING_SUITES, testTimeout: 1_200_000 } },
    ],
  },
});
