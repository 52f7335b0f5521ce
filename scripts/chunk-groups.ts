import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Two chunks where the bundler's automatic splitting made dozens (decision 008, twenty-fourth
 * sitting): the signed-in area's shell (what `client/app/signed-in/signed-in-area.tsx` imports,
 * the area's own module aside, so its chunk stays the route's) and the data layer (the four
 * modules the data provider imports together, `client/data/data-provider.tsx`, and what only they
 * import: RxDB, Dexie, RxJS, the collections). Each module shared by a few lazy chunks had become
 * a chunk of its own, often under 1 kB: a signed-in first visit downloaded 38–47 files, most of
 * them one after the other over HTTP/1.1's six connections, each costing a round trip on a slow
 * link. Now 19–28, and ~10 kB less gzip (one larger file compresses better than many).
 *
 * The groups are computed from the module graph once it is complete (`buildEnd`), so that no
 * module the public pages need is put in them (a public page would then download the signed-in
 * shell or the database), and no module a signed-in page imports is put in the data chunk (the
 * page would then wait for the whole data layer before it draws, where today it draws first and
 * the data layer arrives after). Each group is closed under static imports apart from those
 * modules, so no two chunks import each other.
 */

export const root = path.resolve(import.meta.dirname, '..');
export const SIGNED_IN_AREA = path.join(root, 'client/app/signed-in/signed-in-area.tsx');
export const DATA_ENTRIES = ['database', 'replication', 'browser-storage', 'local-data'].map((f) =>
  path.join(root, `client/data/${f}.ts`),
);

type Graph = {
  moduleIds: () => Iterable<string>;
  info: (
    id: string,
  ) => { isEntry: boolean; importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
};

/** The modules of each group: what the build's module graph puts in them. */
export function chunkGroups(graph: Graph): { signedIn: Set<string>; data: Set<string> } {
  const { info } = graph;
  /** Every module reachable from `starts` by static imports (and lazy ones too with `lazy`), not going through `stop`. */
  const closure = (starts: Iterable<string>, stop: ReadonlySet<string> = new Set(), lazy = false) => {
    const seen = new Set<string>();
    const stack = [...starts];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id) || stop.has(id)) continue;
      seen.add(id);
      stack.push(...(info(id)?.importedIds ?? []));
      if (lazy) stack.push(...(info(id)?.dynamicallyImportedIds ?? []));
    }
    return seen;
  };
  const ids = [...graph.moduleIds()];
  const initial = closure(ids.filter((id) => info(id)?.isEntry));
  const lazyFrom = (from: Iterable<string>, except: readonly string[]) =>
    [...from].flatMap((id) => info(id)?.dynamicallyImportedIds ?? []).filter((id) => !except.includes(id));
  // The public pages: what the entry imports lazily, the signed-in area aside, and what they import lazily in turn.
  const publicPages = closure(lazyFrom(initial, [SIGNED_IN_AREA]), new Set([...initial, SIGNED_IN_AREA]), true);
  const shell = closure([SIGNED_IN_AREA], new Set([...initial, ...publicPages]));
  // The signed-in pages: what the shell imports lazily, the data layer aside.
  const pages = closure(lazyFrom(shell, DATA_ENTRIES), new Set([...initial, ...publicPages, ...shell]));
  const data = closure(DATA_ENTRIES, new Set([...initial, ...publicPages, ...shell, ...pages]));
  shell.delete(SIGNED_IN_AREA);
  return { signedIn: shell, data };
}

let groups = { signedIn: new Set<string>(), data: new Set<string>() };

/** Works the groups out from the build's module graph, before the bundler makes its chunks. */
export function chunkGroupsPlugin(): Plugin {
  return {
    name: 'chunk-groups',
    apply: 'build',
    buildEnd() {
      groups = chunkGroups({ moduleIds: () => this.getModuleIds(), info: (id) => this.getModuleInfo(id) });
    },
  };
}

/** `build.rolldownOptions.output.codeSplitting.groups`, read once the plugin has run. */
export const CHUNK_GROUPS = [
  { name: 'signed-in', test: (id: string) => groups.signedIn.has(id), includeDependenciesRecursively: false },
  { name: 'data', test: (id: string) => groups.data.has(id), includeDependenciesRecursively: false },
];
