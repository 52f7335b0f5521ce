import { defineConfig } from 'vitest/config';

// Four projects, run one after the other by `npm test`: unit tests sit beside the code;
// integration tests (twice: on the embedded store and on PostgreSQL) and end-to-end tests live
// under tests/.
// Two workers for every project: Vitest's default is one fewer than the cores (one here), and
// integration files spend most of their time waiting on disks, sockets and timers (measured:
// 453 s → 264 s for both stores' integration runs).
const WORKERS = 2;
// Integration files share their worker's module cache (no per-file isolation): each file imports
// the whole server, and re-importing it for each of the 108 file runs cost ~5 s a file, most of
// the time of the short ones (measured: both stores' runs 514 s → 393 s). They can share it
// because every file starts its own servers (several live side by side in one file already),
// none mocks a module, and the one that spies on `crypto` or sets NODE_ENV restores it.
const INTEGRATION_ISOLATE = false;
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers: WORKERS,
          include: [
            'shared/**/*.test.ts',
            'sync-server/**/*.test.ts',
            'client/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          maxWorkers: WORKERS,
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          isolate: INTEGRATION_ISOLATE,
          // A PostgreSQL cluster for the run (or DATABASE_URL's): the PostgreSQL store's suites.
          globalSetup: ['tests/support/postgres/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The same integration files on the PostgreSQL store (tests/support/store-under-test.ts),
        // but those about one store's own files or already about PostgreSQL.
        test: {
          name: 'integration-pg',
          maxWorkers: WORKERS,
          include: ['tests/integration/**/*.test.ts'],
          exclude: [
            'tests/integration/store-crash.test.ts',
            'tests/integration/postgres-*.test.ts',
            'tests/integration/window-counters.test.ts',
            'tests/integration/bundle-budget.test.ts',
          ],
          environment: 'node',
          isolate: INTEGRATION_ISOLATE,
          env: { TEST_STORE: 'postgres' },
          globalSetup: ['tests/support/postgres/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // Two files at a time, each with its own server and browser: on the two-core machine the
          // suite took ~480 s (two runs, all passed) where one file after another took ~600 s. Each
          // file takes ~1.7 times as long beside another; every test waits for what a user would
          // see, with room for that (docs/decisions/034-test-run-time.md).
          maxWorkers: WORKERS,
        },
      },
    ],
  },
});
