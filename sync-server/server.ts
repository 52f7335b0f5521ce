import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { Config } from './config';

export type RunningServer = {
  url: string;
  port: number;
  close(): Promise<void>;
};

/** Starts the HTTP server (API, client, and later the chat socket) and resolves once it listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const app = createApp({ config });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.host && config.host !== '0.0.0.0' && config.host !== '::' ? config.host : 'localhost'}:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
