import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { PRECOMPRESSED } from '../../scripts/precompress';

/** The build's hashed files (Vite puts a content hash in every file name under assets/). */
export const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';

/**
 * Sends the build's precompressed files (scripts/precompress.ts) to a browser that accepts
 * their encoding: `GET /assets/x.js` with `Accept-Encoding: br` gets `x.js.br` as it is, with
 * the type of `x.js`. Everything else (no such file, an encoding not accepted, a range request)
 * goes on to the static files, compressed on the fly as before.
 *
 * Which files have precompressed forms is read from the folder once, at the first request for
 * an asset; names come only from that listing, so nothing a request says reaches the disk. A
 * build made while the server runs is served too: its new files (new hashes) are simply not in
 * the listing and get the on-the-fly compression.
 */
export function precompressedAssets(distDir: string): RequestHandler {
  const assetsDir = path.join(distDir, 'assets');
  let listing: Set<string> | undefined;
  const available = (): Set<string> => {
    if (!listing) {
      try {
        listing = new Set(fs.readdirSync(assetsDir));
      } catch {
        return new Set(); // not built yet: asked again at the next request
      }
    }
    return listing;
  };

  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith('/assets/') || req.headers.range)
      return next();
    const name = req.path.slice('/assets/'.length);
    const files = available();
    if (!files.has(name)) return next();
    const encodings = PRECOMPRESSED.filter((p) => files.has(name + p.suffix));
    if (encodings.length === 0) return next();
    const form = preferredEncoding(req.headers['accept-encoding'], encodings);
    res.vary('Accept-Encoding');
    if (!form) return next();
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', form.encoding);
    res.setHeader('Cache-Control', IMMUTABLE_ASSET);
    res.sendFile(path.join(assetsDir, name + form.suffix), { cacheControl: false }, (err) => {
      if (err && !res.headersSent) {
        // Deleted since the listing (a rebuild): the file as it is, if it still exists.
        listing = undefined;
        res.removeHeader('Content-Encoding');
        next();
      }
    });
  };
}

/**
 * The form to send for an `Accept-Encoding` header: the one with the highest quality, brotli
 * before gzip when they tie (as the compression middleware prefers; Chrome lists gzip first), and
 * none when neither is accepted (`q=0`, or no header: then only the file as it is).
 */
export function preferredEncoding<E extends { encoding: string }>(
  header: string | undefined,
  forms: readonly E[],
): E | undefined {
  const quality = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.toLowerCase().split(';');
    const token = name.trim();
    if (!token) continue;
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
    quality.set(token, q ? Number(q[1]) : 1);
  }
  let best: E | undefined;
  let bestQ = 0;
  for (const form of forms) {
    const q = quality.get(form.encoding) ?? quality.get('*') ?? 0;
    if (q > bestQ) [best, bestQ] = [form, q];
  }
  return best;
}
