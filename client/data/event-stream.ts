import { STREAM_SILENCE_MS } from '../../shared/sync/protocol';
import { withTimeout } from '../lib/with-timeout';

/**
 * A Server-Sent Events reader over fetch, so the same code runs in the browser and in Node and
 * can tell a refused session (401) from a network failure, which EventSource cannot. Network
 * errors never throw: they become status events, and it reconnects with exponential backoff.
 * An open stream that goes silent for longer than the server's heartbeats allow is taken for a
 * connection that died without closing, and is dropped and connected again like a closed one.
 * It only splits the stream into events; what they carry (`hello`, `changes`) is defined in
 * shared/sync/protocol.ts and read by replication.ts.
 */
export type StreamEvent = { event: string; data: string };
/**
 * `unreachable`: the request itself failed (no network, or a network that only looks connected:
 * browsers keep `navigator.onLine` true on a captive or dead link). `closed`: an open stream ended.
 */
export type StreamStatus = 'connecting' | 'open' | 'closed' | 'unreachable' | 'unauthorized';

export type EventStreamOptions = {
  url: string;
  fetch: typeof fetch;
  headers?: () => Record<string, string>;
  onEvent: (e: StreamEvent) => void;
  onStatus: (s: StreamStatus) => void;
  /** Anything arrived on an open stream (events and the server's heartbeats): the server is there. */
  onActivity?: () => void;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** An open stream silent this long is dropped and connected again (default STREAM_SILENCE_MS). */
  silenceMs?: number;
};

/** A read that brought nothing for longer than the stream may stay silent. */
class StreamSilent extends Error {}

export class EventStream {
  private controller: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private destroyed = false;

  constructor(private readonly options: EventStreamOptions) {
    void this.connect();
  }

  /** Drops the current connection and connects again now (e.g. when the browser comes online). */
  reconnectNow(): void {
    if (this.destroyed) return;
    this.attempt = 0;
    this.controller?.abort();
    clearTimeout(this.timer);
    void this.connect();
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.timer);
    this.controller?.abort();
  }

  private async connect(): Promise<void> {
    if (this.destroyed) return;
    const controller = new AbortController();
    this.controller = controller;
    this.options.onStatus('connecting');
    let reached = false;
    try {
      const res = await this.options.fetch(this.options.url, {
        headers: { accept: 'text/event-stream', ...this.options.headers?.() },
        credentials: 'same-origin',
        signal: controller.signal,
        // A stream stays open for the page's life: the pulls and scripts asked beside it come
        // first, and tools that wait for a page's important requests to end (Lighthouse) do not
        // wait for this one, which never ends (decision 008, twenty-third sitting).
        priority: 'low',
      });
      reached = true;
      if (res.status === 401) {
        this.options.onStatus('unauthorized');
        return;
      }
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      this.attempt = 0;
      this.options.onStatus('open');
      this.options.onActivity?.();
      await this.read(res.body, controller);
    } catch {
      // A network error or an abort: reported as a status, never thrown.
    }
    if (this.controller !== controller || this.destroyed) return;
    this.options.onStatus(reached ? 'closed' : 'unreachable');
    this.scheduleReconnect();
  }

  private async read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const silenceMs = this.options.silenceMs ?? STREAM_SILENCE_MS;
    let buffer = '';
    for (;;) {
      const { done, value } = await withTimeout(reader.read(), silenceMs, () => {
        // Not waited on: a connection that died may never answer the cancel either.
        reader.cancel().catch(() => undefined);
        controller.abort();
        return new StreamSilent();
      });
      if (done) return;
      this.options.onActivity?.();
      buffer += decoder.decode(value, { stream: true });
      let idx: number;
      while ((idx = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length) this.options.onEvent({ event, data: data.join('\n') });
      }
    }
  }

  private scheduleReconnect(): void {
    const min = this.options.minDelayMs ?? 1000;
    const max = this.options.maxDelayMs ?? 30_000;
    const delay = Math.min(max, min * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.timer = setTimeout(() => void this.connect(), delay);
  }
}
