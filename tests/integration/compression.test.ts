import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
