import { defineConfig } from 'vitest/config';

// Three projects, run one after the other by `npm test`:
// unit tests sit beside the code; integration and end-to-end tests live under tests/.
// Two workers for unit and integration files: Vitest's default is one fewer than the cores (one
// here), and integration files spend most of their time waiting on disks, sockets and timers
// (measured: 453 s → 264 s for both stores' integration runs).
const WORKERS = 2;
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
          // One browser at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
