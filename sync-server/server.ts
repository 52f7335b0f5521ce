import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ChatHub } from './chat/hub';
import type { Config } from './config';
import { createContext, type AppContext } from './context';
import { INDEXES } from './indexes';
import { settleStoredGigs } from './policies/hiring';
import { startPush } from './push/push';
import { ChangeStreamHub } from './replication/stream';
import { openJournalStore } from './store/journal-store';

export type RunningServer = {
  url: string;
  port: number;
  ctx: AppContext;
  chat: ChatHub;
  /** The open change streams. */
  streams: ChangeStreamHub;
  close(): Promise<void>;
};

/** Opens the store, then serves the API, the change stream and the client on one HTTP server. */
export async function startServer(config: Config): Promise<RunningServer> {
  const store = await openJournalStore({
    dataDir: config.dataDir,
    indexes: INDEXES,
    snapshotIntervalMs: config.snapshotIntervalMs,
    snapshotEveryCommits: config.snapshotEveryCommits,
  });
  await settleStoredGigs(store, Date.now());
  const ctx = createContext(config, store);
  const hub = new ChangeStreamHub(ctx);
  const push = await startPush(ctx);
  const server = http.createServer(createApp(ctx, hub, push));
  const chat = new ChatHub(ctx, { idleMs: config.chatRoomIdleMs });
  chat.attach(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    hub.close();
    await push.close();
    await chat.close();
    await store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host && config.host !== '0.0.0.0' && config.host !== '::' ? config.host : 'localhost';
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    chat,
    streams: hub,
    async close() {
      hub.close();
      await push.close();
      await chat.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}
