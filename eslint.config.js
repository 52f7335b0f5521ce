// @ts-check
import tseslint from 'typescript-eslint';

// Imports flow one way: shared/ (pure domain) <- sync-server/ and client/.
// shared/ imports nothing from client/ or sync-server/, and no I/O library.
const IO_LIBRARIES = [
  'node:*', 'fs', 'path', 'http', 'https', 'net', 'crypto', 'child_process',
  'express', 'express/*', 'lowdb', 'lowdb/*', 'dexie', 'rxdb', 'rxdb/*', 'yjs', 'y-websocket', 'y-indexeddb',
  '@y/websocket-server', '@y/websocket-server/*', 'y-protocols', 'y-protocols/*', 'stripe', 'ws', 'react', 'react-dom', 'react-router-dom',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/client/**', '**/sync-server/**', '../client/*', '../sync-server/*'], message: 'shared/ is the pure domain: it must not import client/ or sync-server/.' },
          { group: IO_LIBRARIES, message: 'shared/ is pure: no I/O libraries.' },
        ],
      }],
      'no-restricted-globals': ['error', 'fetch', 'localStorage', 'indexedDB', 'window', 'document'],
    },
  },
  {
    files: ['sync-server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/client/**', '../client/*'], message: 'The server does not import client code.' }],
      }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/sync-server/**', '../sync-server/*'], message: 'The client does not import server code.' }],
      }],
    },
  },
);
