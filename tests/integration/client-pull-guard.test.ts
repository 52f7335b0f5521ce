import type { RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullAnswer } from '../../shared/sync/protocol';
import type { SyncStatus } from '../../client/data/replication';
import { gigDoc, person, write, type Person } from '../support/fixtures';
import { startNodeClient, type NodeAppClient } from '../support/node-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

/**
 * Issue 18, the device's side: whatever the server sends and whatever the storage does, a device
 * never keeps a checkpoint past documents it did not store, and says so while it retries.
 */
const GIGS = 120;
const BATCH = 50;

let server: TestServer;
let buyer: Person;
const gigIds: string[] = [];
beforeAll(async () => {
  server = await startTestServer();
  buyer = await person(server.url);
  for (let i = 0; i < GIGS; i++) {
    const { refusal, master } = await write(buyer.http, 'gigs', gigDoc({ title: `Gig number ${i}` }));
    if (refusal || !master) throw new Error(`gig refused: ${refusal}`);
    gigIds.push(master.id as string);
  }
});
afterAll(async () => {
  await server.cleanup();
});

const gigCount = (client: NodeAppClient) => client.db.gigs.count().exec();

function record(client: NodeAppClient): SyncStatus[] {
  const seen: SyncStatus[] = [];
  client.sync.status$.subscribe((s) => seen.push(s));
  return seen;
}

describe('pulled batches on a new device', () => {
  it('documents with a built-in name as id are refused one by one; the rest of their batch is stored', async () => {
    const viewer = await person(server.url);
    const poisoning: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input).includes('/api/sync/gigs/pull?seq=0&')) return res;
      // An older server, or a store written before the id rule: it serves documents named after built-ins.
      const body = (await res.json()) as PullAnswer;
      const like = body.documents[0]!;
      body.documents.splice(
        1,
        0,
        { ...like, id: 'toString' },
        { ...like, id: 'constructor' },
        { ...like, id: 'hasOwnProperty' },
      );
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = await startNodeClient(viewer.http, viewer.user.id, { fetch: poisoning, batchSize: BATCH });
    try {
      await waitFor(`all ${GIGS} gigs stored`, async () => (await gigCount(client)) === GIGS, 15_000);
      const stored = (await client.db.gigs.find().exec()).map((d) => d.id);
      expect(stored.sort()).toEqual([...gigIds].sort());
      await waitFor('the refusal in the status', () => client.sync.status.unstorable === 3, 5_000);
      expect(client.sync.status.storeFailed).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('a batch that fails to be stored is pulled again, and the status says so until it is stored', async () => {
    const viewer = await person(server.url);
    let failures = 0;
    const base = getRxStorageMemory() as RxStorage<unknown, unknown>;
    // The first write of a pulled gigs batch fails, as an IndexedDB write does when the disk is full.
    const failing: RxStorage<unknown, unknown> = {
      ...base,
      async createStorageInstance<D>(params: RxStorageInstanceCreationParams<D, unknown>) {
        const instance: RxStorageInstance<D, unknown, unknown> = await base.createStorageInstance(params);
        if (params.collectionName !== 'gigs') return instance;
        const bulkWrite = instance.bulkWrite.bind(instance);
        instance.bulkWrite = (rows, context) => {
          if (failures === 0 && context.startsWith('replication-downstream')) {
            failures++;
            return Promise.reject(new Error('QuotaExceededError (simulated)'));
          }
          return bulkWrite(rows, context);
        };
        return instance;
      },
    };
    const client = await startNodeClient(viewer.http, viewer.user.id, { storage: failing, batchSize: BATCH });
    const statuses = record(client);
    try {
      await waitFor('the failed write', () => failures === 1, 10_000);
      await waitFor(`all ${GIGS} gigs stored after the retry`, async () => (await gigCount(client)) === GIGS, 20_000);
      expect(statuses.some((s) => s.storeFailed)).toBe(true);
      await waitFor('the failure cleared once everything is stored', () => !client.sync.status.storeFailed, 10_000);
      // Still whole after later changes arrive.
      const late = (await write(buyer.http, 'gigs', gigDoc({ title: 'A late gig' }))).master!;
      await waitFor('the late gig', () => client.db.gigs.findOne(late.id as string).exec(), 10_000);
      expect(await gigCount(client)).toBe(GIGS + 1);
      gigIds.push(late.id as string);
    } finally {
      await client.close();
    }
  });
});
