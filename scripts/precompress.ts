import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * The build's hashed files (`assets/`), compressed once at build time beside themselves:
 * `x.js.br` (brotli at its best quality) and `x.js.gz` (gzip level 9). The server sends them
 * as they are to a browser that accepts them (sync-server/http/precompressed.ts) instead of
 * compressing each file again for every request.
 *
 * Brotli at quality 11 is too slow to run per request, and worth it once: a signed-in first
 * visit's scripts are 13% smaller than with the on-the-fly brotli (quality 4) they had, 238
 * against 276 kB for `/notifications` (decision 008), on the slow links our users have.
 */

/** Files smaller than this are not worth an extra file (a request's headers are ~0.5 kB). */
const PRECOMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(?:js|css|svg|json|webmanifest)$/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The encodings written, by the suffix of their files. */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Writes `.br` and `.gz` beside every compressible file of `dir` (one level); returns how many files it compressed. */
export async function precompressDir(dir: string): Promise<number> {
  const names = (await fs.readdir(dir)).filter((n) => COMPRESSIBLE.test(n));
  let compressed = 0;
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const data = await fs.readFile(file);
      if (data.length < PRECOMPRESS_MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([fs.writeFile(file + '.br', br), fs.writeFile(file + '.gz', gz)]);
      compressed++;
    }),
  );
  return compressed;
}

/** The Vite plugin: once the bundle is written, its `assets/` are precompressed. */
export function precompressAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'creative-gigs:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressDir(path.join(outDir, 'assets'));
      },
    },
  };
}
