import http from 'node:http';

/**
 * One signed-in `GET /api/sync/stream` on its own connection, read with node:http: it only looks
 * for the id of the document being waited for, so the reading side costs little per stream.
 */
export class RawSseStream {
  private buffer = '';
  private waitingFor: { id: string; resolve: (at: number) => void } | undefined;
  readonly opened: Promise<void>;
  readonly ended: Promise<void>;
  private req: http.ClientRequest;

  constructor(baseUrl: string, token: string) {
    const u = new URL('/api/sync/stream', baseUrl);
    let markEnded!: () => void;
    this.ended = new Promise((resolve) => (markEnded = resolve));
    let hello!: () => void;
    let failed!: (err: Error) => void;
    this.opened = new Promise((resolve, reject) => ((hello = resolve), (failed = reject)));
    this.req = http.get(
      {
        host: u.hostname,
        port: Number(u.port),
        path: u.pathname,
        agent: false,
        headers: { cookie: `sid=${token}`, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          failed(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          this.buffer += chunk;
          if (this.buffer.includes('event: hello')) hello();
          const waiting = this.waitingFor;
          if (waiting && this.buffer.includes(waiting.id)) {
            this.waitingFor = undefined;
            waiting.resolve(at);
          }
          // Keep only the unfinished event: what came before was looked at already.
          const end = this.buffer.lastIndexOf('\n\n');
          if (end >= 0) this.buffer = this.buffer.slice(end + 2);
        });
        res.on('close', markEnded);
      },
    );
    this.req.on('error', (err) => {
      failed(err);
      markEnded();
    });
  }

  /** Resolves with the time (performance.now()) the event naming `id` arrived. */
  arrival(id: string): Promise<number> {
    return new Promise((resolve) => (this.waitingFor = { id, resolve }));
  }

  close(): void {
    this.req.destroy();
  }
}

/** Opens `count` streams, a few dozen at a time, and waits for each one's `hello`. */
export async function openStreams(baseUrl: string, tokens: string[]): Promise<RawSseStream[]> {
  const streams: RawSseStream[] = [];
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = tokens.slice(i, i + 50).map((t) => new RawSseStream(baseUrl, t));
    await Promise.all(batch.map((s) => s.opened));
    streams.push(...batch);
  }
  return streams;
}
