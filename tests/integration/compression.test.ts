import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { preferredEncoding } from '../../sync-server/http/precompressed';
import { gigDoc, signUpWithProfile, write } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';

/** A raw GET, so the test sees the bytes on the wire (fetch would decompress them). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; firstChunk: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        // The change stream never ends: its first event is enough.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          req.destroy();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            firstChunk: chunks[0]!,
          });
        }
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          firstChunk: chunks[0] ?? Buffer.alloc(0),
        }),
      );
    });
    req.on('error', reject);
  });
}

describe('compression over slow links', () => {
  let server: TestServer;
  let dist: string;
  const script = `export const board = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `gig card ${i}`))};\n`;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><title>Gigs</title></head><body>${'<p>shell</p>'.repeat(200)}</body></html>`,
    );
    await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js'), script);
    server = await startTestServer({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await server.cleanup();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('sends the client files brotli- or gzip-compressed to a browser that accepts it, and plain to one that does not', async () => {
    const br = await rawGet(`${server.url}/assets/index-abc123.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await rawGet(`${server.url}/assets/index-abc123.js`, { 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gz.body.length).toBeLessThan(script.length / 3);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);

    const page = await rawGet(`${server.url}/landing`, { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.body).toString()).toContain('<title>Gigs</title>');

    const plain = await rawGet(`${server.url}/assets/index-abc123.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('gzips a large pull, and never the change stream, whose events must arrive at once', async () => {
    const client = new TestClient(server.url);
    await signUpWithProfile(client);
    for (let i = 0; i < 15; i++)
      expect((await write(client, 'gigs', gigDoc({ title: `Mural number ${i}` }))).refusal).toBeUndefined();
    const cookie = client.cookieHeader();

    const pull = await rawGet(`${server.url}/api/sync/gigs/pull?seq=0&limit=100`, {
      'accept-encoding': 'gzip',
      cookie,
    });
    expect(pull.status).toBe(200);
    expect(pull.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(zlib.gunzipSync(pull.body).toString()) as { documents: { title: string }[] };
    expect(body.documents.map((d) => d.title)).toContain('Mural number 14');

    const stream = await rawGet(`${server.url}/api/sync/stream`, {
      'accept-encoding': 'gzip',
      cookie,
      accept: 'text/event-stream',
    });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.firstChunk.toString()).toMatch(/event: hello/);
  });
});

describe("the build's precompressed files", () => {
  let server: TestServer;
  let dist: string;
  let script: string; // a real library's minified-ish code, as a build holds
  const style = `.card{padding:1rem}\n`.repeat(5); // under 1 kB: not precompressed
  const asset = (name: string) => path.join(dist, 'assets', name);

  beforeAll(async () => {
    script = await fs.readFile(path.resolve('node_modules/yjs/dist/yjs.mjs'), 'utf8');
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Gigs</title>');
    await fs.writeFile(asset('board-x1y2z3.js'), script);
    await fs.writeFile(asset('small-abc.css'), style);
    expect(await precompressDir(path.join(dist, 'assets'))).toBe(1);
    server = await startTestServer({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await server.cleanup();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('writes brotli and gzip forms beside the build files worth it, and not beside small ones', async () => {
    expect(zlib.brotliDecompressSync(await fs.readFile(asset('board-x1y2z3.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(await fs.readFile(asset('board-x1y2z3.js.gz'))).toString()).toBe(script);
    await expect(fs.stat(asset('small-abc.css.br'))).rejects.toThrow();
  });

  it("sends a browser that takes brotli the build's brotli file as it is, smaller than compressing on the fly", async () => {
    const onDisk = await fs.readFile(asset('board-x1y2z3.js.br'));
    // Chrome's header: gzip listed first, brotli still preferred.
    const br = await rawGet(`${server.url}/assets/board-x1y2z3.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.equals(onDisk)).toBe(true);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);
    const onTheFly = zlib.brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(br.body.length).toBeLessThan(onTheFly.length);
  });

  it('sends gzip to a browser that refuses brotli, and the file as it is to one that takes neither', async () => {
    const gz = await rawGet(`${server.url}/assets/board-x1y2z3.js`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(await fs.readFile(asset('board-x1y2z3.js.gz')))).toBe(true);

    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ]) {
      const plain = await rawGet(`${server.url}/assets/board-x1y2z3.js`, headers);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
    }
  });

  it('answers a range request and a file without precompressed forms from the file itself', async () => {
    const range = await rawGet(`${server.url}/assets/board-x1y2z3.js`, {
      'accept-encoding': 'br',
      range: 'bytes=0-9',
    });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString()).toBe(script.slice(0, 10));

    const small = await rawGet(`${server.url}/assets/small-abc.css`, { 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.headers['content-type']).toMatch(/^text\/css/);
    expect(small.body.toString()).toBe(style); // under the on-the-fly threshold too
  });

  it("never serves a precompressed file for a name that is not one of the build's", async () => {
    for (const name of ['..%2Findex.html', 'constructor', '__proto__', 'toString']) {
      const res = await rawGet(`${server.url}/assets/${name}`, { 'accept-encoding': 'br' });
      expect(res.headers['content-encoding'], name).toBeUndefined();
    }
  });

  it('chooses the encoding by quality, brotli on a tie, none when neither is accepted', () => {
    const forms = [{ encoding: 'br' }, { encoding: 'gzip' }];
    expect(preferredEncoding('gzip, deflate, br', forms)?.encoding).toBe('br');
    expect(preferredEncoding('br;q=0.5, gzip;q=0.8', forms)?.encoding).toBe('gzip');
    expect(preferredEncoding('*', forms)?.encoding).toBe('br');
    expect(preferredEncoding('*;q=0, gzip', forms)?.encoding).toBe('gzip');
    expect(preferredEncoding('deflate', forms)).toBeUndefined();
    expect(preferredEncoding(undefined, forms)).toBeUndefined();
    expect(preferredEncoding('BR', forms)?.encoding).toBe('br');
    expect(preferredEncoding('gzip ; q=0.9, br ;q=0.5', forms)?.encoding).toBe('gzip');
    expect(preferredEncoding('gzip;q=0.5 , br ; q=0.9', forms)?.encoding).toBe('br');
  });
});
