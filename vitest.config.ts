import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/** Test files run side by side: at least two at a time, even on a two-core machine. */
const workers = Math.max(2, availableParallelism() - 1);
/**
 * API test files at once (`API_WORKERS` overrides): on PostgreSQL a third overlaps the time each file
 * waits on the database server, which runs in its own processes.
 */
const apiWorkers = Math.max(1, Number(process.env.API_WORKERS ?? workers));
/**
 * Journeys at once, each worker with its own server and browser (`E2E_WORKERS` overrides). A journey
 * spends part of its time waiting (for its server's jobs, the network going quiet, a debounced field),
 * so one more than the test workers keeps the cores busy: on two cores, three at once ran every journey
 * in 379 s where two took 398 s. At most six: each holds a server and a browser in memory.
 */
const e2eWorkers = Math.max(1, Number(process.env.E2E_WORKERS ?? Math.min(workers + 1, 6)));

/**
 * Unit test files that replace a module (`vi.mock`), spy on a shared one or stub browser globals: they
 * need a fresh module graph of their own.
 */
const isolatedUnitFiles = [
  "src/web/features/catalog/components/facet-count.test.ts",
  "src/web/lib/clipboard.test.ts",
  "src/web/lib/lazy-toast.test.ts",
  "src/web/lib/local-store.test.ts",
  "src/web/lib/mutation.test.ts",
];

/** API test files that replace a module with `vi.mock`: the mock needs a fresh module graph of their own. */
const mockingApiFiles = [
  "src/server/modules/account/account-timing.test.ts",
  "src/server/modules/licenses/licenses.test.ts",
];

const api = {
  environment: "node" as const,
  maxWorkers: apiWorkers,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  setupFiles: ["src/server/test/setup.ts"],
  globalSetup: ["src/server/test/global-setup.ts"],
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/domain/**/*.test.ts", "src/web/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...isolatedUnitFiles],
          environment: "node",
          // The unit and API files run in one pool (`npm test` runs them together), and vitest gives
          // projects that run together one number of workers.
          maxWorkers: apiWorkers,
          // Pure rules: files share a worker's imported modules (zod, the domain) instead of importing
          // them again for each file.
          isolate: false,
        },
      },
      {
        test: {
          name: "unit-isolated",
          include: [...isolatedUnitFiles],
          environment: "node",
          maxWorkers: apiWorkers,
        },
      },
      {
        test: {
          name: "api",
          ...api,
          include: ["src/server/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...mockingApiFiles],
          // Each file builds its own app on its own database, so files share a worker's imported modules
          // instead of importing the whole server again (that import was most of the run's time).
          isolate: false,
        },
      },
      {
        test: {
          name: "api-mocked",
          ...api,
          include: [...mockingApiFiles],
        },
      },
      {
        test: {
          name: "e2e",
          // A page on a loaded CI machine can take more than a second to route, render or refetch; a
          // poll that succeeds returns at once, so the longer limit costs only a failing test time.
          expect: { poll: { timeout: 10_000 } },
          include: ["e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["e2e/global-setup.ts"],
          // A long journey (a sale, its refund and the admin's review: 17 s alone) took over 60 s on a
          // loaded two-core CI machine; a passing journey returns as soon as it is done.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: e2eWorkers,
          // A worker's files share its imports (Playwright, axe, the stand-ins) and its browser
          // (see e2e/browser.ts) instead of loading and launching them again for every file.
          isolate: false,
        },
      },
      {
        test: {
          // The journey through two instances behind HAProxy; scripts/two-instances.sh starts them.
          name: "e2e-lb",
          include: ["scripts/two-instances.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
