import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** Test files run side by side: at least two at a time, even on a two-core machine. */
const workers = Math.max(2, availableParallelism() - 1);
/**
 * API test files at once (`API_WORKERS` overrides): on PostgreSQL a third overlaps the time each file
 * waits on the database server, which runs in its own processes.
 */
const apiWorkers = Math.max(1, Number(process.env.API_WORKERS ?? workers));
/** Journeys at once, each worker with its own server and browser (`E2E_WORKERS` overrides). */
const e2eWorkers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/domain/**/*.test.ts", "src/web/**/*.test.ts"],
          environment: "node",
          maxWorkers: workers,
        },
      },
      {
        test: {
          name: "api",
          include: ["src/server/**/*.test.ts"],
          environment: "node",
          maxWorkers: apiWorkers,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          setupFiles: ["src/server/test/setup.ts"],
          globalSetup: ["src/server/test/global-setup.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: e2eWorkers,
        },
      },
    ],
  },
});
