import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['client', 'shared', 'public', 'vite.config.ts', 'package.json', 'package-lock.json'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** True when dist/ is missing or older than any client source. */
export function clientBuildIsStale(distDir: string, root = process.cwd()): boolean {
  const built = path.join(distDir, 'index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > builtAt);
}

/** `npm start` builds the client first when the build is missing or stale. */
export async function ensureClientBuilt(distDir: string): Promise<void> {
  if (!clientBuildIsStale(distDir)) return;
  console.log('Building the client (missing or stale build)...');
  const { build } = await import('vite');
  await build({ configFile: path.resolve('vite.config.ts'), build: { outDir: distDir } });
}
