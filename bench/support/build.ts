import fs from 'node:fs';
import path from 'node:path';
import { ensureClientBuilt } from '../../sync-server/build-client';

/**
 * The built client the benchmarks serve. DIST_DIR names a build made elsewhere (comparing two
 * builds, say), taken as it is. Without it, dist/ is built as `npm start` builds it: when it holds
 * no build or one older than the client's sources, so a benchmark never measures a build the code
 * has moved on from.
 */
export async function ensureBuilt(dist = path.resolve(process.env.DIST_DIR ?? 'dist')): Promise<string> {
  if (path.resolve(dist) !== path.resolve('dist')) {
    if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} holds no build`);
    return dist;
  }
  await ensureClientBuilt(dist);
  return dist;
}
