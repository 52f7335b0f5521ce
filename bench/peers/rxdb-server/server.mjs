// RxDB's replication server (rxdb-server 15.22, Express adapter) over RxDB's memory storage: the
// peer of bench/rxdb-server.ts. One `gigs` collection with the app's gig fields; every request is
// let through (no sessions, no per-user filter, no validation of writes, nothing persisted), as
// RxDB's example server does. Listens on 127.0.0.1 at the port given, says "ready" on stdout.
import { createRxDatabase } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { RxServerAdapterExpress } from 'rxdb-server/plugins/adapter-express';
import { createRxServer } from 'rxdb-server/plugins/server';

const port = Number(process.argv[2]);
const text = { type: 'string' };
const database = await createRxDatabase({ name: 'peer', storage: getRxStorageMemory() });
await database.addCollections({
  gigs: {
    schema: {
      version: 0,
      primaryKey: 'id',
      type: 'object',
      properties: {
        id: { type: 'string', maxLength: 100 },
        title: text,
        description: text,
        category: text,
        locationType: text,
        budget: text,
        isPassionDriven: { type: 'boolean' },
        currency: text,
        skills: text,
        projectDeadline: text,
        createdAt: { type: 'number' },
        createdBy: text,
        creatorName: text,
        status: text,
        updatedAt: { type: 'number' },
      },
      required: ['id'],
    },
  },
});
const server = await createRxServer({
  database,
  port,
  hostname: '127.0.0.1',
  adapter: RxServerAdapterExpress,
  authHandler: () => ({ data: {}, validUntil: Date.now() + 24 * 60 * 60 * 1000 }),
});
server.addReplicationEndpoint({ name: 'gigs', collection: database.gigs });
await server.start();
console.log('ready');
