import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { clientBuildIsStale } from '../../sync-server/build-client';

/**
 * The built client the benchmarks serve. DIST_DIR names a build made elsewhere (comparing two
 * builds, say), taken as it is. Without it, dist/ is built with `npm run build` when it holds no
 * build or one older than the client's sources (as `npm start` does), so a benchmark never measures
 * a build the code has moved on from.
 */
export function ensureBuilt(dist = path.resolve(process.env.DIST_DIR ?? 'dist')): string {
  if (path.resolve(dist) !== path.resolve('dist')) {
    if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} holds no build`);
    return dist;
  }
  if (!clientBuildIsStale(dist)) return dist;
  console.log('  dist/ is missing or older than the client sources: npm run build');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (${result.status})`);
  return dist;
}
