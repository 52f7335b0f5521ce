import { describe, expect, it } from 'vitest';
import { syncRequest, SyncTimeoutError, type SyncRequestOptions } from './sync-http';

/** Request options around `fetchFn`, recording the signals it was given and the calls of each callback. */
function options(fetchFn: typeof fetch, timeoutMs = 60) {
  const seen = { unreachable: 0, answers: 0, signals: [] as AbortSignal[] };
  const opts: SyncRequestOptions = {
    fetch: (input, init) => {
      if (init?.signal) seen.signals.push(init.signal);
      return fetchFn(input, init);
    },
    baseUrl: 'http://127.0.0.1:1',
    onUnreachable: () => seen.unreachable++,
    onAnswer: () => seen.answers++,
    onUnauthorized: () => {},
    timeoutMs,
  };
  return { opts, seen };
}

/** A body that sends `first` and then nothing, ever (a connection that died mid-answer). */
function stalledBody(first: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(first));
    },
  });
}

describe('syncRequest time bound', () => {
  it('a server that never answers: the request fails with SyncTimeoutError, its fetch aborted, the server counted out of reach', async () => {
    const { opts, seen } = options(() => new Promise<Response>(() => {}));
    const started = performance.now();
    const err = await syncRequest(opts, 'GET', '/api/sync/gigs/pull?seq=0&limit=500').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(seen.signals[0]?.aborted).toBe(true);
    expect(seen.unreachable).toBe(1);
    expect(seen.answers).toBe(0);
  });

  it('an answer whose body stops halfway and never ends (and ignores the abort) fails too', async () => {
    const { opts, seen } = options(() => Promise.resolve(new Response(stalledBody('{"documents":['), { status: 200 })));
    const err = await syncRequest(opts, 'POST', '/api/sync/gigs/push', []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncTimeoutError);
    expect(seen.answers).toBe(1);
    expect(seen.unreachable).toBe(1);
  });

  it('an answer in time is returned, and the bound does not fire afterwards', async () => {
    const { opts, seen } = options(() =>
      Promise.resolve(new Response(JSON.stringify({ documents: [], checkpoint: { seq: 3 } }), { status: 200 })),
    );
    await expect(syncRequest(opts, 'GET', '/api/sync/gigs/pull?seq=0&limit=500')).resolves.toEqual({
      documents: [],
      checkpoint: { seq: 3 },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.signals[0]?.aborted).toBe(false);
    expect(seen.unreachable).toBe(0);
  });
});
