import { afterEach, describe, expect, it } from 'vitest';
import { EventStream, type StreamStatus } from './event-stream';

let streams: EventStream[] = [];
afterEach(() => {
  for (const s of streams) s.destroy();
  streams = [];
});

function watch(fetchFn: typeof fetch) {
  const statuses: StreamStatus[] = [];
  const events: string[] = [];
  streams.push(
    new EventStream({
      url: 'http://127.0.0.1:1/api/sync/stream',
      fetch: fetchFn,
      onStatus: (s) => statuses.push(s),
      onEvent: (e) => events.push(`${e.event}:${e.data}`),
      minDelayMs: 60_000,
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

  it('a server answering 503 was reached: "closed", not "unreachable"', async () => {
    const { statuses } = watch(() => Promise.resolve(new Response('down', { status: 503 })));
    await settle();
    expect(statuses).toEqual(['connecting', 'closed']);
  });
});
