import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUDGETS,
  chunkOfModule,
  clientRoutes,
  libraryOfModule,
  readBundle,
  routeLoad,
  type Bundle,
  type Route,
} from '../../bench/support/bundle-graph';
import { DATA_ENTRIES } from '../../scripts/chunk-groups';

/**
 * The bundle budgets of issue 8, checked on a fresh production build: this suite runs before the
 * end-to-end suite builds dist/, so it builds the client itself (Vite's JS API, vite.config.ts
 * as shipped, into a temp folder). It also checks that bench/support/bundle-graph.ts, which reads
 * only the built files, sees the same graph and the same libraries as the bundler itself.
 */

let outDir: string;
let output: Rolldown.OutputChunk[];
let parsed: Bundle;
let exact: Bundle;
let routes: Route[];

beforeAll(async () => {
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-bundle-'));
  // Vitest sets NODE_ENV=test, which would give React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const result = await build({
      configFile: path.resolve('vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    output = outputs.flatMap((o) => o.output).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const modules = new Map(output.map((c) => [c.fileName, c.moduleIds]));
  parsed = readBundle(outDir);
  exact = readBundle(outDir, { modulesOf: (file) => modules.get(file) });
  routes = clientRoutes();
}, 120_000);

afterAll(async () => {
  if (outDir) await fs.rm(outDir, { recursive: true, force: true });
});

describe('bundle budgets', () => {
  it('reads the same chunk graph from the built files as the bundler wrote', () => {
    expect(output.length).toBeGreaterThan(10);
    expect([...parsed.chunks.keys()].sort()).toEqual(output.map((c) => c.fileName).sort());
    for (const chunk of output) {
      const seen = parsed.chunks.get(chunk.fileName)!;
      expect({ file: chunk.fileName, imports: [...seen.imports].sort() }).toEqual({
        file: chunk.fileName,
        imports: [...chunk.imports].sort(),
      });
      expect({ file: chunk.fileName, dynamic: seen.dynamicImports.map((d) => d.file).sort() }).toEqual({
        file: chunk.fileName,
        dynamic: [...chunk.dynamicImports].sort(),
      });
    }
  });

  it('finds each route page in the chunk built for it, and the libraries by their code as by their modules', () => {
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/', '/teaser', '/signup', '/login', '/landing', '/exchange/:userId']),
    );
    for (const page of new Set(routes.flatMap((r) => r.pages))) {
      const chunk = output.find((c) => c.fileName === chunkOfModule(parsed, page))!;
      expect(chunk.facadeModuleId).toMatch(
        new RegExp(`${page.replace(/^(\.\.?\/)+/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.tsx?$`),
      );
    }
    for (const [file, chunk] of exact.chunks)
      expect({ file, libraries: parsed.chunks.get(file)!.libraries }).toEqual({ file, libraries: chunk.libraries });
    expect(output.some((c) => c.moduleIds.some((id) => libraryOfModule(id) === 'rxdb'))).toBe(true);
  });

  it('loads no RxDB, Dexie or Yjs on any public page, and does on the signed-in pages that need them', () => {
    const loads = routes.map((r) => routeLoad(exact, r, routes));
    const publicLoads = loads.filter((l) => l.route.area === 'public');
    expect(publicLoads.length).toBeGreaterThanOrEqual(6);
    for (const l of publicLoads)
      expect({ path: l.route.path, libraries: l.libraries }).toEqual({ path: l.route.path, libraries: [] });
    const landing = loads.find((l) => l.route.path === '/landing')!;
    expect(landing.libraries).toEqual(['rxdb', 'dexie']);
    expect(loads.find((l) => l.route.path === '/exchange/:userId')!.libraries).toContain('yjs');
  });

  it(`keeps / within ${BUDGETS.home.maxGzip / 1000} kB gzip and the signed-in shell within ${BUDGETS.signedInShell.maxGzip / 1000} kB`, () => {
    for (const budget of [BUDGETS.home, BUDGETS.signedInShell]) {
      const load = routeLoad(
        exact,
        routes.find((r) => r.path === budget.path)!,
        routes,
      );
      expect(load.files.some((f) => f.endsWith('.css'))).toBe(true);
      // The page's own chunk is part of what is counted.
      expect(load.files).toContain(chunkOfModule(exact, load.route.pages.at(-1)!));
      expect(load.gzip, `${budget.path}: ${load.files.join(', ')}`).toBeLessThanOrEqual(budget.maxGzip);
    }
  });

  it(`downloads at most ${BUDGETS.signedInFiles} files for any signed-in page, the data layer in one chunk that no page waits for`, () => {
    // The modules the data provider imports together, as the build groups them.
    const dataLayer = DATA_ENTRIES;
    const holding = output.filter((c) => c.moduleIds.some((id) => dataLayer.includes(id)));
    expect(holding.map((c) => c.fileName)).toHaveLength(1);
    const data = holding[0]!;
    expect(dataLayer.every((id) => data.moduleIds.includes(id))).toBe(true);
    // The signed-in area's shell (its data provider among it): no public page downloads it either.
    const shell = output.find((c) => c.moduleIds.includes(path.resolve('client/data/data-provider.tsx')))!;
    expect(shell.fileName).not.toBe(data.fileName);
    const byFile = new Map(output.map((c) => [c.fileName, c]));
    const staticGraph = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const i of byFile.get(file)?.imports ?? []) staticGraph(i, seen);
      return seen;
    };
    for (const route of routes) {
      const load = routeLoad(exact, route, routes);
      if (route.area === 'public') {
        expect({
          path: route.path,
          data: load.files.includes(data.fileName),
          shell: load.files.includes(shell.fileName),
        }).toEqual({ path: route.path, data: false, shell: false });
        continue;
      }
      expect(load.files.length, `${route.path}: ${load.files.join(', ')}`).toBeLessThanOrEqual(BUDGETS.signedInFiles);
      expect(load.files).toContain(data.fileName);
      // The page draws (its loading state, a copy of the board) before the data layer has arrived.
      const page = chunkOfModule(exact, route.pages.at(-1)!);
      expect({ path: route.path, waitsForData: staticGraph(page).has(data.fileName) }).toEqual({
        path: route.path,
        waitsForData: false,
      });
    }
  });
});
