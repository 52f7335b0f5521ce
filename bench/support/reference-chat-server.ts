import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setupWSConnection } from '@y/websocket-server/utils';
import { WebSocketServer } from 'ws';

/**
 * The unvalidated reference room server, `@y/websocket-server` 0.1.1 (`setupWSConnection`, gc on,
 * no persistence), behind a plain HTTP server with `ws`, as its own `server.js` runs it: no
 * authentication, no checks, every update relayed (and echoed to its sender) as it arrives.
 *
 * A child process for bench/chat.ts, started and stopped like our server (tests/support/spawn-server.ts):
 * it prints `serving on http://…` and answers `{ id, op }` over IPC with `cpu` (process CPU time
 * in µs) and `close` (exits).
 */
const wss = new WebSocketServer({ noServer: true });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end('okay');
});
server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => setupWSConnection(ws, req, { gc: true }));
});
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
const { port } = server.address() as { port: number };
console.log(`serving on http://127.0.0.1:${port}`);

let closing = false;
function shutdown(): void {
  if (closing) return;
  closing = true;
  for (const ws of wss.clients) ws.terminate();
  wss.close();
  server.close(() => process.exit(0));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, shutdown);

type Request = { id: number; op: 'cpu' | 'close' };

function answer(op: Request['op']): Record<string, unknown> {
  switch (op) {
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return { cpuMicros: user + system, elu: performance.eventLoopUtilization() };
    }
    case 'close':
      shutdown();
      return {};
  }
}

if (process.send) {
  process.on('message', (message: Request) => process.send?.({ id: message.id, ...answer(message.op) }));
  process.on('disconnect', shutdown);
}
