import { afterEach, describe, expect, it } from 'vitest';
import { EventStream, type StreamStatus } from './event-stream';

let streams: EventStream[] = [];
afterEach(() => {
  for (const s of streams) s.destroy();
  streams = [];
});

function watch(fetchFn: typeof fetch, timing: { minDelayMs?: number; silenceMs?: number } = {}) {
  const statuses: StreamStatus[] = [];
  const events: string[] = [];
  streams.push(
    new EventStream({
      url: 'http://127.0.0.1:1/api/sync/stream',
      fetch: fetchFn,
      onStatus: (s) => statuses.push(s),
      onEvent: (e) => events.push(`${e.event}:${e.data}`),
      minDelayMs: 60_000,
      ...timing,
    }),
  );
  return { statuses, events };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('EventStream status', () => {
  it('a request that never reaches the server is "unreachable", whatever navigator.onLine says', async () => {
    const { statuses } = watch(() => Promise.reject(new TypeError('Failed to fetch')));
    await settle();
    expect(statuses).toEqual(['connecting', 'unreachable']);
  });

  it('a stream the server answered and then ended is "closed", after its events', async () => {
    const body = new Response('event: hello\ndata: {}\n\n').body!;
    const { statuses, events } = watch(() => Promise.resolve(new Response(body, { status: 200 })));
    await settle();
    expect(events).toEqual(['hello:{}']);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
  });

  it('asks for the stream at low priority: it never ends, and the pulls asked beside it come first', async () => {
    const asked: RequestInit[] = [];
    watch((_url, init) => {
      asked.push(init ?? {});
      return Promise.reject(new TypeError('Failed to fetch'));
    });
    await settle();
    expect(asked.map((init) => init.priority)).toEqual(['low']);
  });

  it('a server answering 503 was reached: "closed", not "unreachable"', async () => {
    const { statuses } = watch(() => Promise.resolve(new Response('down', { status: 503 })));
    await settle();
    expect(statuses).toEqual(['connecting', 'closed']);
  });
});

/** An open stream that sends `first`, then heartbeats every `everyMs` (never, without it), and never ends. */
function openStream(first: string, everyMs?: number): Response {
  let beat: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(first));
      if (everyMs) beat = setInterval(() => c.enqueue(new TextEncoder().encode(': heartbeat\n\n')), everyMs);
    },
    cancel() {
      clearInterval(beat);
    },
  });
  return new Response(body, { status: 200 });
}

describe('EventStream silence', () => {
  it('an open stream that goes silent (a connection that died without closing) is dropped and connected again', async () => {
    let connects = 0;
    const { statuses, events } = watch(
      () => {
        connects++;
        return Promise.resolve(openStream(`event: hello\ndata: {"seq":${connects}}\n\n`));
      },
      { silenceMs: 60, minDelayMs: 10 },
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(connects).toBeGreaterThanOrEqual(2);
    // Each connection's hello arrived (the device resyncs on each), and each silent one was closed.
    expect(events.slice(0, 2)).toEqual(['hello:{"seq":1}', 'hello:{"seq":2}']);
    expect(statuses.slice(0, 4)).toEqual(['connecting', 'open', 'closed', 'connecting']);
  });

  it("a stream kept alive by the server's heartbeats stays open", async () => {
    let connects = 0;
    const { statuses } = watch(
      () => {
        connects++;
        return Promise.resolve(openStream('event: hello\ndata: {}\n\n', 20));
      },
      { silenceMs: 60, minDelayMs: 10 },
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(connects).toBe(1);
    expect(statuses).toEqual(['connecting', 'open']);
  });
});
