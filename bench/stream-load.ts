import http from 'node:http';
import path from 'node:path';
import { LIMITS } from '../shared/constants';
import { gigDoc } from '../tests/support/fixtures';
import { LOAD_ENV, SERVER_ENTRY, startChildServer, type ChildServer } from '../tests/support/spawn-server';
import { flag } from './support/cli';
import { copyOf, dataset, removeDatasets } from './support/datasets';
import { LoadClient, type PushAnswer } from './support/http';
import { openStreams } from './support/sse';

/**
 * What open change streams cost the server (issue 18, item 3), measured, not asserted:
 * - the server's RSS with 100 change streams whose readers never read, through 5 (and 20) pushes
 *   of 500 gigs each with every text field at its longest;
 * - the time of one push of 500 gigs with no stream open and with 300 reading streams.
 * Each stream is its own user's session. `--entry=<server-entry.ts>` measures another checkout's
 * server (e.g. the commit before a change); `--only=push` skips the memory part. Wall times
 * depend on what else the machine runs; the server's CPU time per push less so.
 * Run: `node --import tsx bench/stream-load.ts`.
 */

const BATCH = 500;
/** Gigs with every text field at its longest, as an abuser would send them. */
const bigGig = () =>
  gigDoc({
    title: 'T'.repeat(LIMITS.titleMax),
    description: 'D'.repeat(LIMITS.descriptionMax),
    skills: 'S'.repeat(LIMITS.skillsMax),
  });

/** One push of BATCH gigs: its wall time and the server's CPU time for it, in ms. */
async function pushBatch(writer: LoadClient, server: ChildServer): Promise<{ wall: number; cpu: number }> {
  const rows = Array.from({ length: BATCH }, () => ({
    assumedMasterState: null,
    newDocumentState: { _deleted: false, ...bigGig() },
  }));
  const cpuBefore = await server.cpuMicros();
  const started = performance.now();
  const res = await writer.request<PushAnswer>('POST', '/api/sync/gigs/push', rows).catch((err: unknown) => {
    throw new Error(`push failed (${String(err)}); server stderr: ${server.stderr()}`);
  });
  const wall = performance.now() - started;
  if (res.status !== 200 || res.body.refused.length)
    throw new Error(`push answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return { wall, cpu: ((await server.cpuMicros()) - cpuBefore) / 1000 };
}

/** A stream whose reader takes the headers and then never reads another byte (the kernel's socket buffers fill first). */
function unreadStream(baseUrl: string, token: string): Promise<http.ClientRequest> {
  const u = new URL('/api/sync/stream', baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: u.hostname,
        port: Number(u.port),
        path: u.pathname,
        agent: false,
        headers: { cookie: `sid=${token}`, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
        res.pause();
        resolve(req);
      },
    );
    req.on('error', () => {});
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** RSS as `ps` shows it: no garbage collection forced first. */
const rss = async (server: ChildServer) => (await server.ask<{ rss: number }>('memory')).rss;

const entry = flag('entry') ? path.resolve(flag('entry')!) : SERVER_ENTRY;
const data = await dataset({ gigs: 2000, sessions: 301 });
const [writerSession, ...readers] = data.sessions;
try {
  for (const pushes of flag('only') === 'push' ? [] : [5, 20]) {
    const server = await startChildServer({ entry, dataDir: await copyOf(data, 'unread'), env: LOAD_ENV });
    try {
      const writer = new LoadClient(server.url, writerSession!.token, 1);
      const streams = await Promise.all(readers.slice(0, 100).map((s) => unreadStream(server.url, s.token)));
      const open = await rss(server);
      let peak = open;
      for (let i = 0; i < pushes; i++) {
        await pushBatch(writer, server);
        peak = Math.max(peak, await rss(server));
      }
      await new Promise((r) => setTimeout(r, 2000));
      const after = await rss(server);
      console.log(
        `100 unread streams, ${pushes} pushes of ${BATCH} gigs: RSS ${mb(open)} with the streams open, peak ${mb(peak)}, ${mb(after)} 2 s after the last push`,
      );
      for (const s of streams) s.destroy();
      writer.close();
    } finally {
      await server.stop();
    }
  }
  {
    const server = await startChildServer({ entry, dataDir: await copyOf(data, 'push'), env: LOAD_ENV });
    try {
      const writer = new LoadClient(server.url, writerSession!.token, 1);
      await pushBatch(writer, server); // warm-up
      const alone: { wall: number; cpu: number }[] = [];
      for (let i = 0; i < 3; i++) alone.push(await pushBatch(writer, server));
      const streams = await openStreams(
        server.url,
        readers.slice(0, 300).map((s) => s.token),
      );
      // A new connection: the server may have closed the idle keep-alive one meanwhile.
      writer.close();
      const writerAgain = new LoadClient(server.url, writerSession!.token, 1);
      const withStreams: { wall: number; cpu: number }[] = [];
      for (let i = 0; i < 3; i++) withStreams.push(await pushBatch(writerAgain, server));
      writerAgain.close();
      const ms = (xs: { wall: number; cpu: number }[]) =>
        xs.map((x) => `${x.wall.toFixed(0)} ms (server CPU ${x.cpu.toFixed(0)} ms)`).join(', ');
      console.log(`one push of ${BATCH} gigs: no stream open ${ms(alone)}; 300 streams open ${ms(withStreams)}`);
      for (const s of streams) s.close();
    } finally {
      await server.stop();
    }
  }
} finally {
  await removeDatasets();
}
