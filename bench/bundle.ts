import { ensureBuilt } from './support/build';
import { BUDGETS, clientRoutes, readBundle, routeLoad, type RouteLoad } from './support/bundle-graph';
import { runStandalone } from './support/cli';
import type { Report } from './report';

const KB = 1000;

/**
 * What each route downloads, gzip (the entry with its modulepreloads and stylesheet, the route's
 * lazy chunks, what they import and what runs on mount: see bench/support/bundle-graph.ts), from
 * the built dist/. Targets: no public page loads RxDB, Dexie or Yjs; `/` ≤ 100 kB; the signed-in
 * shell (/landing) ≤ 300 kB; no signed-in page more than `BUDGETS.signedInFiles` files.
 */
export async function benchBundle(report: Report): Promise<RouteLoad[]> {
  const bundle = readBundle(await ensureBuilt());
  const routes = clientRoutes();
  const loads = routes.map((r) => routeLoad(bundle, r, routes));
  for (const l of loads) {
    const libs = l.libraries.length ? `, with ${l.libraries.join(', ')}` : '';
    report.info(`bundle ${l.route.path} (${l.route.area}${libs})`, 'gzip JS+CSS', l.gzip / KB, 'kB');
  }
  const heavy = loads.filter((l) => l.route.area === 'public' && l.libraries.length > 0);
  report.atMost(
    'bundle, public pages',
    'pages loading RxDB/Dexie/Yjs',
    heavy.length,
    'pages',
    0,
    `0 (of ${loads.filter((l) => l.route.area === 'public').length})`,
  );
  const signedIn = loads.filter((l) => l.route.area !== 'public');
  const mostFiles = signedIn.reduce((a, b) => (b.files.length > a.files.length ? b : a));
  report.atMost(
    'bundle, signed-in pages',
    'files downloaded (most)',
    mostFiles.files.length,
    'files',
    BUDGETS.signedInFiles,
    `≤ ${BUDGETS.signedInFiles}`,
  );
  report.note(`bundle: ${mostFiles.route.path} downloads the most files of a signed-in page`);
  for (const l of heavy) report.note(`${l.route.path} loads ${l.libraries.join(', ')}: ${l.files.join(', ')}`);
  for (const budget of [BUDGETS.home, BUDGETS.signedInShell]) {
    const load = loads.find((l) => l.route.path === budget.path);
    if (!load) throw new Error(`no route ${budget.path} in the client`);
    report.atMost(`bundle ${budget.path}`, 'gzip JS+CSS', load.gzip / KB, 'kB', budget.maxGzip / KB);
    if (load.gzip > budget.maxGzip) {
      const biggest = load.files
        .map((f) => ({ f, gzip: bundle.chunks.get(f)?.gzip ?? bundle.css.get(f)?.gzip ?? 0 }))
        .sort((a, b) => b.gzip - a.gzip)
        .slice(0, 5);
      report.note(
        `${budget.path} is over budget; biggest files: ${biggest.map((b) => `${b.f} ${(b.gzip / KB).toFixed(1)} kB`).join(', ')}`,
      );
    }
  }
  return loads;
}

// `node --import tsx bench/bundle.ts`
if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Creative Gigs bundle sizes', (report) => benchBundle(report));
}
