// @ts-check
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Imports flow one way: shared/ (pure domain) <- sync-server/ and client/.
// shared/ imports nothing from client/ or sync-server/, and no I/O library.
const IO_LIBRARIES = [
  'node:*',
  'fs',
  'path',
  'http',
  'https',
  'net',
  'crypto',
  'child_process',
  'express',
  'express/*',
  'lowdb',
  'lowdb/*',
  'dexie',
  'rxdb',
  'rxdb/*',
  'yjs',
  'y-websocket',
  'y-indexeddb',
  '@y/websocket-server',
  '@y/websocket-server/*',
  'y-protocols',
  'y-protocols/*',
  'stripe',
  'ws',
  'react',
  'react-dom',
  'react-router-dom',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // No import cycles anywhere: a cycle hides which module is the lower layer.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/**', '**/sync-server/**', '../client/*', '../sync-server/*'],
              message: 'shared/ is the pure domain: it must not import client/ or sync-server/.',
            },
            { group: IO_LIBRARIES, message: 'shared/ is pure: no I/O libraries.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'fetch', 'localStorage', 'indexedDB', 'window', 'document'],
    },
  },
  {
    files: ['sync-server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/client/**', '../client/*'], message: 'The server does not import client code.' }],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/sync-server/**', '../sync-server/*'], message: 'The client does not import server code.' },
          ],
        },
      ],
      // The classic hook rules (decision 022); an effect that lists fewer dependencies on purpose
      // says why where it does.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useLive$' }],
    },
  },
  // A feature uses another only through that feature's index.ts, never its internals.
  {
    files: ['client/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/sync-server/**', '../sync-server/*'], message: 'The client does not import server code.' },
            {
              regex: '^\\.\\./[^./][^/]*/.+',
              message: "Import another feature through its index.ts ('../feature'), not its files.",
            },
          ],
        },
      ],
    },
  },
  // Formatting is Prettier's (npm run format); no lint rule argues with it.
  prettier,
);
