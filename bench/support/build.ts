import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The built client (DIST_DIR, default dist/), built with `npm run build` when it holds no build. */
export function ensureBuilt(dist = path.resolve(process.env.DIST_DIR ?? 'dist')): string {
  if (fs.existsSync(path.join(dist, 'index.html'))) return dist;
  if (path.resolve(dist) !== path.resolve('dist')) throw new Error(`${dist} holds no build`);
  console.log('  dist/ is missing: npm run build');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (${result.status})`);
  return dist;
}
