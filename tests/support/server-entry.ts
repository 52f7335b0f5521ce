import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../../sync-server/config';
import { startServer } from '../../sync-server/server';

/**
 * The real server in a child process, without the client build step of `npm start`: for kill
 * tests, and for benchmarks, whose load must not share the server's event loop.
 *
 * Started with an IPC channel (`fork`), it answers `{ id, op }` messages with `{ id, ...result }`:
 * - `memory`: resident set and heap after a full GC (needs `--expose-gc` to collect first);
 * - `cpu`: process CPU time so far in microseconds, and event-loop utilisation;
 * - `stats`: store statistics and the chat rooms held in memory;
 * - `close`: closes the server as SIGTERM does, then exits (so `--cpu-prof` writes its profile).
 */
const server = await startServer(readConfig());
console.log(`serving on http://127.0.0.1:${server.port}`);

let closing: Promise<void> | undefined;
function shutdown(): Promise<void> {
  closing ??= server.close().then(() => process.exit(0));
  return closing;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown());

type Request = { id: number; op: 'memory' | 'cpu' | 'stats' | 'close' };

async function answer(op: Request['op']): Promise<Record<string, unknown>> {
  switch (op) {
    case 'memory': {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        // Twice, with a turn of the event loop between: finalizers and weak references settle.
        gc();
        await new Promise((r) => setTimeout(r, 50));
        gc();
      }
      const m = process.memoryUsage();
      return {
        rss: m.rss,
        heapUsed: m.heapUsed,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        heapTotal: v8.getHeapStatistics().total_heap_size,
      };
    }
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return { cpuMicros: user + system, elu: performance.eventLoopUtilization() };
    }
    case 'stats': {
      const store = server.ctx.store as { stats?: () => unknown };
      return { store: store.stats?.(), rooms: server.chat.loadedRooms.length };
    }
    case 'close':
      void shutdown();
      return {};
  }
}

if (process.send) {
  process.on('message', (message: Request) => {
    void answer(message.op).then(
      (result) => process.send?.({ id: message.id, ...result }),
      (err: unknown) => process.send?.({ id: message.id, error: String(err) }),
    );
  });
  // The parent going away takes the server with it.
  process.on('disconnect', () => void shutdown());
}
