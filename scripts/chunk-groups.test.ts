import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkGroups, DATA_ENTRIES, root, SIGNED_IN_AREA } from './chunk-groups';

const app = (file: string) => path.join(root, file);
const [database, replication, browserStorage, localData] = DATA_ENTRIES as [string, string, string, string];

/** A build's module graph: each module's static and lazy imports. */
function graph(modules: Record<string, { imports?: string[]; lazy?: string[]; entry?: boolean }>) {
  return {
    moduleIds: () => Object.keys(modules),
    info: (id: string) => {
      const m = modules[id];
      return m ? { isEntry: !!m.entry, importedIds: m.imports ?? [], dynamicallyImportedIds: m.lazy ?? [] } : null;
    },
  };
}

describe('chunk groups', () => {
  const main = app('client/main.tsx');
  const login = app('client/features/auth/login-page.tsx');
  const publicLater = app('client/features/auth/later.ts');
  const layout = app('client/app/signed-in/layout.tsx');
  const provider = app('client/data/data-provider.tsx');
  const page = app('client/features/applications/applications-page.tsx');
  const machine = app('shared/application-machine.ts');
  const collections = app('client/data/collections.ts');
  const text = app('shared/text.ts');
  const money = app('shared/money.ts');
  const react = '/x/node_modules/react/index.js';
  const rxdb = '/x/node_modules/rxdb/index.js';
  const groups = chunkGroups(
    graph({
      [main]: { entry: true, imports: [react], lazy: [SIGNED_IN_AREA, login] },
      [react]: {},
      [login]: { imports: [text], lazy: [publicLater] },
      [publicLater]: { imports: [money] },
      [text]: {},
      [money]: {},
      [SIGNED_IN_AREA]: { imports: [layout, text, money, react] },
      [layout]: { imports: [provider] },
      [provider]: { lazy: [page, database, replication, browserStorage, localData] },
      [page]: { imports: [machine] },
      [machine]: {},
      [database]: { imports: [rxdb, machine, collections] },
      [replication]: { imports: [collections] },
      [browserStorage]: { imports: [rxdb] },
      [localData]: { imports: [collections] },
      [rxdb]: {},
      [collections]: {},
    }),
  );

  it('puts in the shell what the signed-in area imports, but never what a public page or the entry needs, nor the area itself', () => {
    expect([...groups.signedIn].sort()).toEqual([layout, provider].sort());
  });

  it('puts in the data chunk the data layer and what only it imports, never what a signed-in page imports', () => {
    expect([...groups.data].sort()).toEqual(
      [database, replication, browserStorage, localData, rxdb, collections].sort(),
    );
    expect(groups.data.has(machine)).toBe(false);
  });
});
