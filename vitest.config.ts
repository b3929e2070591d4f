import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["libs/*/src/**/*.test.ts", "libs/*/test/**/*.test.ts", "services/*/src/**/*.test.ts", "services/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // Suites share one broker and one database; files run in parallel workers but each test
    // uses its own queue and database names.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
  },
});
