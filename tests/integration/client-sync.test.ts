import type { RxStorage } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationIdFor } from '../../shared/ids';
import { TestClient } from '../support/http-client';
import { gigDoc, push, signUp, signUpWithProfile, write } from '../support/fixtures';
import { applyToGig, withdrawApplication } from '../../client/features/applications/application-writes';
import { saveProfileFields } from '../../client/features/profile/profile-writes';
import { overrideInstances } from '../../client/data/storage-overrides';
import { startNodeClient, type DeviceKept, type NodeAppClient } from '../support/node-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

describe('the client data layer against the real server', () => {
  it('a gig written locally by A goes out, and reaches B live through the change stream', async () => {
    const httpA = new TestClient(server.url);
    const a = await signUpWithProfile(httpA, { name: 'Ada' });
    const httpB = new TestClient(server.url);
    const b = await signUpWithProfile(httpB, { name: 'Ben' });
    const clientA = await startNodeClient(httpA, a.id);
    const clientB = await startNodeClient(httpB, b.id);
    try {
      await clientB.sync.awaitInSync();
      const gig = gigDoc({ title: 'Written offline-first' });
      await clientA.app.local.insert('gigs', gig as never);
      expect(clientA.sync.status.pending).toBe(1);

      await waitFor('the gig on the server', () => server.ctx.store.get('gigs', gig.id as string), 10_000);
      await waitFor("A's outbox emptied", () => clientA.outbox.count === 0, 10_000);
      // The server's stamped fields come back to the writer.
      const mine = await waitFor(
        "the server's fields back at A",
        async () => {
          const d = await clientA.db.gigs.findOne(gig.id as string).exec();
          return d?.createdBy === a.id ? d : undefined;
        },
        10_000,
      );
      expect(mine.creatorName).toBe('Ada');
      const seen = await waitFor('the gig at B', () => clientB.db.gigs.findOne(gig.id as string).exec(), 10_000);
      expect(seen.title).toBe('Written offline-first');
    } finally {
      await clientA.close();
      await clientB.close();
    }
  });

  it('a refused write is kept with its reason and content, and the local copy follows the server', async () => {
    const http = new TestClient(server.url);
    const user = await signUp(http); // no profile: creating a gig is refused
    const client = await startNodeClient(http, user.id);
    try {
      const gig = gigDoc({ title: 'Refused gig' });
      await client.app.local.insert('gigs', gig as never);
      const problem = await waitFor('a sync problem', () => client.db.syncproblems.findOne().exec(), 10_000);
      expect(problem.reason).toBe('Please complete your profile before creating a gig');
      expect(JSON.parse(problem.content)).toMatchObject({ title: 'Refused gig' });
      await waitFor(
        'the refused gig gone locally',
        async () => (await client.db.gigs.findOne(gig.id as string).exec()) === null,
        10_000,
      );
      expect(client.outbox.count).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('reports a session the server no longer knows', async () => {
    const http = new TestClient(server.url);
    const user = await signUpWithProfile(http);
    const client = await startNodeClient(http, user.id);
    try {
      await client.sync.awaitInSync();
      await http.post('/api/auth/logout');
      http.setCookie('sid', 'revoked-session-token');
      await client.db.gigs.insert(gigDoc() as never);
      await client.unauthorized;
    } finally {
      await client.close();
    }
  });

  it('a pull whose answer never comes (a connection that died without closing) is given up and made again: the gigs arrive', async () => {
    const httpA = new TestClient(server.url);
    await signUpWithProfile(httpA, { name: 'Ada' });
    const gig = gigDoc({ title: 'Behind a dead connection' });
    expect((await write(httpA, 'gigs', gig)).refusal).toBeUndefined();

    const httpB = new TestClient(server.url);
    const b = await signUpWithProfile(httpB, { name: 'Ben' });
    let swallowed = 0;
    // The device's first gigs pull goes out and nothing ever comes back, not even an error.
    const deadFirstPull: typeof fetch = (input, init) => {
      if (String(input).includes('/api/sync/gigs/pull') && swallowed === 0) {
        swallowed++;
        return new Promise<Response>(() => {});
      }
      return fetch(input, init);
    };
    const client = await startNodeClient(httpB, b.id, { fetch: deadFirstPull, requestTimeoutMs: 500 });
    try {
      const seen = await waitFor('the gig at B', () => client.db.gigs.findOne(gig.id as string).exec(), 10_000);
      expect(seen.title).toBe('Behind a dead connection');
      expect(swallowed).toBe(1);
    } finally {
      await client.close();
    }
  });
});

/**
 * A memory storage whose replication records (RxDB's meta instances) stop being written once
 * `cut()` is called: their writes wait until `release()`, then answer as written without writing,
 * as when the tab is closed while the device stores a pull (the gigs land, their records do not).
 */
/**
 * The device's owner edits their gig `doc` (a document of its gigs collection): the edit reaches
 * the server on the version the device holds, with no conflict and no sync problem.
 */
async function editGoesOut(client: NodeAppClient, doc: { primary: string }, title: string) {
  await client.app.local.patch('gigs', doc.primary, { title });
  await waitFor('the edit on the server', () => server.ctx.store.get('gigs', doc.primary)?.title === title, 10_000);
  await client.sync.awaitInSync();
  expect(await client.db.syncproblems.count().exec()).toBe(0);
}

function storageLosingReplicationRecords() {
  const base = getRxStorageMemory() as RxStorage<unknown, unknown>;
  let cut = false;
  const waiting: (() => void)[] = [];
  const storage = overrideInstances(base, (instance) =>
    instance.collectionName.startsWith('rx-replication-meta')
      ? {
          bulkWrite: (rows, context) =>
            cut
              ? new Promise((resolve) => waiting.push(() => resolve({ error: [] })))
              : instance.bulkWrite(rows, context),
        }
      : {},
  );
  return {
    base,
    storage,
    cut: () => {
      cut = true;
    },
    release: () => waiting.splice(0).forEach((answer) => answer()),
  };
}

describe('a first sync cut off mid-way', () => {
  it('a device that stored pulled gigs but not their replication records pushes none of them back when it starts again, and takes what changed meanwhile', async () => {
    const httpA = new TestClient(server.url);
    await signUpWithProfile(httpA, { name: 'Ada' });
    const gigs = Array.from({ length: 120 }, (_, i) => gigDoc({ title: `Gig ${i} of a long board` }));
    const pushed = await push(
      httpA,
      'gigs',
      gigs.map((g) => ({ assumedMasterState: null, newDocumentState: { _deleted: false, ...g } })),
    );
    expect(pushed.status).toBe(200);

    const httpB = new TestClient(server.url);
    const b = await signUpWithProfile(httpB, { name: 'Ben' });
    const device = storageLosingReplicationRecords();
    device.cut();
    const first = await startNodeClient(httpB, b.id, { storage: device.storage, batchSize: 20, databaseKey: b.id });
    const adas = new Set(gigs.map((g) => g.id as string));
    const stored = await waitFor(
      "some of Ada's gigs stored",
      async () => {
        const docs = (await first.db.gigs.find().exec()).filter((d) => adas.has(d.id));
        return docs.length >= 10 ? docs.map((d) => d.toJSON()) : undefined;
      },
      10_000,
    );
    // The tab closes: the records' writes never land.
    device.release();
    await first.close();

    // Meanwhile Ada renames one of the gigs the device holds.
    const renamed = stored[0]!;
    const { _seq, ...current } = server.ctx.store.get('gigs', renamed.id)!;
    expect(
      (await write(httpA, 'gigs', { ...current, title: 'Renamed while the device was closed' }, current)).refusal,
    ).toBeUndefined();

    let pushes = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith('/push')) pushes++;
      return fetch(input, init);
    };
    const again = await startNodeClient(httpB, b.id, {
      storage: device.base,
      batchSize: 20,
      databaseKey: b.id,
      fetch: counting,
    });
    try {
      await waitFor(
        "every one of Ada's gigs stored",
        async () => (await again.db.gigs.find().exec()).filter((d) => adas.has(d.id)).length === 120,
        10_000,
      );
      await waitFor(
        'the renamed gig at the device',
        async () => (await again.db.gigs.findOne(renamed.id).exec())?.title === 'Renamed while the device was closed',
        10_000,
      );
      await again.sync.awaitInSync();
      expect(pushes).toBe(0);
      expect(await again.db.syncproblems.count().exec()).toBe(0);
      // The device still pushes what its user writes.
      const mine = gigDoc({ title: 'Written after the cut' });
      await again.app.local.insert('gigs', mine as never);
      await waitFor('the new gig on the server', () => server.ctx.store.get('gigs', mine.id as string), 10_000);
      expect(pushes).toBe(1);
    } finally {
      await again.close();
    }
  });
});

describe("the replication's records on a device", () => {
  it("keeps none of other people's gigs and one of each of its user's, and others' changes and deletions still arrive", async () => {
    const httpA = new TestClient(server.url);
    await signUpWithProfile(httpA, { name: 'Ada' });
    const renamed = gigDoc({ title: 'Ada’s gig, to be renamed' });
    const removed = gigDoc({ title: 'Ada’s gig, to be deleted' });
    for (const g of [renamed, removed]) expect((await write(httpA, 'gigs', g)).refusal).toBeUndefined();

    const httpB = new TestClient(server.url);
    const b = await signUpWithProfile(httpB, { name: 'Ben' });
    // The gig records the device writes: for which gig, by whom.
    const recorded: { itemId: string; createdBy: unknown }[] = [];
    const storage = overrideInstances(getRxStorageMemory() as RxStorage<unknown, unknown>, (instance) =>
      instance.collectionName.startsWith('rx-replication-meta')
        ? {
            bulkWrite: (rows, context) => {
              for (const row of rows) {
                const record = row.document as {
                  isCheckpoint?: string;
                  itemId?: string;
                  docData?: { createdBy?: unknown; title?: unknown };
                };
                if (record.isCheckpoint === '0' && typeof record.docData?.title === 'string')
                  recorded.push({ itemId: record.itemId!, createdBy: record.docData.createdBy });
              }
              return instance.bulkWrite(rows, context);
            },
          }
        : {},
    );
    const client = await startNodeClient(httpB, b.id, { storage });
    try {
      await waitFor(
        'Ada’s gigs at the device',
        async () => (await client.db.gigs.findByIds([renamed.id as string, removed.id as string]).exec()).size === 2,
        10_000,
      );
      const mine = gigDoc({ title: 'Ben’s own gig' });
      await client.app.local.insert('gigs', mine as never);
      await waitFor(
        'Ben’s gig stamped by the server',
        async () => (await client.db.gigs.findOne(mine.id as string).exec())?.createdBy === b.id,
        10_000,
      );
      await client.sync.awaitInSync();
      expect(recorded.filter((r) => r.itemId === renamed.id || r.itemId === removed.id)).toEqual([]);
      expect(recorded.some((r) => r.itemId === mine.id && r.createdBy === b.id)).toBe(true);

      // Ada renames one and deletes the other: both reach the device.
      const { _seq: _r, ...current } = server.ctx.store.get('gigs', renamed.id as string)!;
      expect((await write(httpA, 'gigs', { ...current, title: 'Renamed by Ada' }, current)).refusal).toBeUndefined();
      const { _seq: _d, ...doomed } = server.ctx.store.get('gigs', removed.id as string)!;
      expect((await write(httpA, 'gigs', { ...doomed, _deleted: true }, doomed)).refusal).toBeUndefined();
      await waitFor(
        'the rename at the device',
        async () => (await client.db.gigs.findOne(renamed.id as string).exec())?.title === 'Renamed by Ada',
        10_000,
      );
      await waitFor(
        'the deletion at the device',
        async () => (await client.db.gigs.findOne(removed.id as string).exec()) === null,
        10_000,
      );

      // Ben's change to his own gig goes out on the version he holds: the server takes it.
      const own = await client.db.gigs.findOne(mine.id as string).exec();
      await editGoesOut(client, own!, 'Ben’s gig, edited');
    } finally {
      await client.close();
    }
  });

  it("keeps the record of its user's gig made on another device, and the user's edit there goes out on it", async () => {
    const http = new TestClient(server.url);
    const user = await signUpWithProfile(http, { name: 'Cleo' });
    const first = await startNodeClient(http, user.id);
    const gig = gigDoc({ title: 'Made on the laptop' });
    try {
      await first.app.local.insert('gigs', gig as never);
      await waitFor('the gig on the server', () => server.ctx.store.get('gigs', gig.id as string), 10_000);
    } finally {
      await first.close();
    }

    // The same user on a second device: the gig arrives by the pull, with its record.
    const recorded: string[] = [];
    const storage = overrideInstances(getRxStorageMemory() as RxStorage<unknown, unknown>, (instance) =>
      instance.collectionName.startsWith('rx-replication-meta')
        ? {
            bulkWrite: (rows, context) => {
              for (const row of rows) {
                const record = row.document as { isCheckpoint?: string; itemId?: string };
                if (record.isCheckpoint === '0' && record.itemId) recorded.push(record.itemId);
              }
              return instance.bulkWrite(rows, context);
            },
          }
        : {},
    );
    const second = await startNodeClient(http, user.id, { storage });
    try {
      const pulled = await waitFor(
        'the gig on the phone',
        () => second.db.gigs.findOne(gig.id as string).exec(),
        10_000,
      );
      await second.sync.awaitInSync();
      expect(recorded).toContain(gig.id);
      await editGoesOut(second, pulled, 'Edited on the phone');
    } finally {
      await second.close();
    }
  });
});

/**
 * One device whose data opens again over the same storage and what the app keeps in localStorage
 * (the outbox and what it pushed), through `network`.
 */
function reopenableDevice(http: TestClient, userId: string, network: typeof fetch) {
  const storage = getRxStorageMemory() as RxStorage<unknown, unknown>;
  const kept: DeviceKept = { outbox: [], pushed: undefined };
  return () => startNodeClient(http, userId, { storage, databaseKey: userId, fetch: network, kept });
}

/**
 * A device whose push that lands the write under test (`landed`: the server now holds it) has its
 * answer lost on the way back; the app then closes before RxDB's retry and opens again offline
 * (`reopenOffline`), and is back online when the test says (`online`). (A push that lands nothing,
 * such as a fresh device sending its own profile back as it starts, is answered as usual.)
 */
async function deviceLosingAnswer(http: TestClient, userId: string, landed: () => unknown) {
  let state: 'lose-answer' | 'lost' | 'offline' | 'online' = 'lose-answer';
  const network: typeof fetch = async (input, init) => {
    if (state === 'offline' || state === 'lost') throw new TypeError('fetch failed: offline');
    const answer = await fetch(input, init);
    if (state === 'lose-answer' && String(input).endsWith('/push') && landed()) {
      state = 'lost';
      throw new TypeError('network lost');
    }
    return answer;
  };
  const open = reopenableDevice(http, userId, network);
  const first = await open();
  return {
    first,
    async reopenOffline(): Promise<NodeAppClient> {
      await waitFor('the answer lost', () => state === 'lost', 10_000);
      state = 'offline';
      await first.close();
      return open();
    },
    online() {
      state = 'online';
    },
  };
}

/** Everything the device wrote has gone out and been answered, and its replication is in sync. */
async function allSent(client: NodeAppClient): Promise<void> {
  await waitFor('the outbox emptied', () => client.outbox.count === 0, 20_000);
  await client.sync.awaitInSync();
}

describe('a new document whose answer was lost, changed before the device heard back', () => {
  it("a gig's rename goes out on the server's copy, not dropped for it", async () => {
    const http = new TestClient(server.url);
    const ada = await signUpWithProfile(http, { name: 'Ada Lost' });
    const gig = gigDoc({ title: 'Poster, first title', createdBy: ada.id, creatorName: 'Ada Lost' });
    const device = await deviceLosingAnswer(http, ada.id, () => server.ctx.store.get('gigs', gig.id as string));
    await device.first.app.local.insert('gigs', gig as never);
    await waitFor('the gig on the server', () => server.ctx.store.get('gigs', gig.id as string), 10_000);
    // The app closes before the retry, and opens again offline; its user renames the gig.
    const again = await device.reopenOffline();
    try {
      await waitFor('the gig held after the restart', () => again.db.gigs.findOne(gig.id as string).exec(), 10_000);
      expect(await again.app.local.patch('gigs', gig.id as string, { title: 'Poster, corrected title' })).toBe(true);
      device.online();
      await allSent(again);
      const onServer = server.ctx.store.get('gigs', gig.id as string)!;
      const problems = (await again.db.syncproblems.find().exec()).map((p) => p.toJSON());
      // The rename went out on the server's copy: the server holds it, the device shows it.
      expect({ title: onServer.title, problems }).toEqual({ title: 'Poster, corrected title', problems: [] });
      expect((await again.db.gigs.findOne(gig.id as string).exec())?.toJSON()).toMatchObject({
        title: 'Poster, corrected title',
        updatedAt: onServer.updatedAt,
      });
    } finally {
      await again.close();
    }
  });

  it("a profile field edited again: the newer edit wins over the server's copy of the device's own first, whose answer was lost", async () => {
    const http = new TestClient(server.url);
    const dev = await signUpWithProfile(http, { name: 'Dev Twice' });
    const device = await deviceLosingAnswer(
      http,
      dev.id,
      () => server.ctx.store.get('users', dev.id)?.bio === 'Painter, first words.',
    );
    const first = device.first.app;
    await waitFor('his profile on the device', () => first.local.get('users', dev.id), 10_000);
    await saveProfileFields(first, { bio: 'Painter, first words.' });
    await waitFor(
      'the first bio on the server',
      () => server.ctx.store.get('users', dev.id)?.bio === 'Painter, first words.',
      10_000,
    );
    const again = await device.reopenOffline();
    try {
      const later = again.app;
      await waitFor('his profile after the restart', () => later.local.get('users', dev.id), 10_000);
      await saveProfileFields(later, { bio: 'Painter, second thoughts.' });
      device.online();
      await allSent(again);
      expect(server.ctx.store.get('users', dev.id)?.bio).toBe('Painter, second thoughts.');
      expect((await again.db.syncproblems.find().exec()).map((p) => p.reason)).toEqual([]);
      expect((await later.local.get('users', dev.id))?.bio).toBe('Painter, second thoughts.');
    } finally {
      await again.close();
    }
  });

  it("an edit made while the push of the one before it was under way, its own push's answer lost: after a restart the next edit still wins over it", async () => {
    const http = new TestClient(server.url);
    const eli = await signUpWithProfile(http, { name: 'Eli Overlap' });
    // The profile's pushes: the answer to the one that lands the first edit waits until the test
    // releases it; the answer to the one that lands the second is lost, the device then offline
    // until the test says.
    let offline = false;
    let firstArrived = false;
    let secondLost = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const network: typeof fetch = async (input, init) => {
      if (offline) throw new TypeError('fetch failed: offline');
      if (!String(input).endsWith('/users/push')) return fetch(input, init);
      const answer = await fetch(input, init);
      const bio = server.ctx.store.get('users', eli.id)?.bio;
      if (bio === 'One.' && !firstArrived) {
        firstArrived = true;
        await held;
      } else if (bio === 'Two.' && !secondLost) {
        secondLost = true;
        offline = true;
        throw new TypeError('network lost');
      }
      return answer;
    };
    const open = reopenableDevice(http, eli.id, network);
    const first = await open();
    const app = first.app;
    await waitFor('his profile on the device', () => app.local.get('users', eli.id), 10_000);
    await saveProfileFields(app, { bio: 'One.' });
    await waitFor(
      'the first push on the server',
      () => firstArrived && server.ctx.store.get('users', eli.id)?.bio === 'One.',
      10_000,
    );
    await saveProfileFields(app, { bio: 'Two.' });
    release();
    await waitFor(
      'the second push on the server, its answer lost',
      () => offline && server.ctx.store.get('users', eli.id)?.bio === 'Two.',
      10_000,
    );
    await first.close();
    const again = await open();
    try {
      await saveProfileFields(again.app, { bio: 'Three.' });
      offline = false;
      await allSent(again);
      expect(server.ctx.store.get('users', eli.id)?.bio).toBe('Three.');
      expect((await again.db.syncproblems.find().exec()).map((p) => p.reason)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('an application withdrawn meanwhile is withdrawn on the server, not kept as "from another device"', async () => {
    const buyer = new TestClient(server.url);
    await signUpWithProfile(buyer, { name: 'Ben Buyer' });
    const gig = gigDoc({ title: 'Mural for a cafe' });
    expect((await write(buyer, 'gigs', gig)).refusal).toBeUndefined();
    const http = new TestClient(server.url);
    const cleo = await signUpWithProfile(http, { name: 'Cleo Lost' });
    const applicationId = applicationIdFor(gig.id as string, cleo.id);
    const device = await deviceLosingAnswer(http, cleo.id, () => server.ctx.store.get('applications', applicationId));
    const app = device.first.app;
    const held = await waitFor('the gig on the device', () => app.local.get('gigs', gig.id as string), 10_000);
    const me = await waitFor('her profile on the device', () => app.local.get('users', cleo.id), 10_000);
    expect(await applyToGig(app, held, me, 400_00)).toBe(applicationId);
    await waitFor('the application on the server', () => server.ctx.store.get('applications', applicationId), 10_000);
    const again = await device.reopenOffline();
    try {
      const later = again.app;
      await waitFor(
        'the application held after the restart',
        () => later.local.get('applications', applicationId),
        10_000,
      );
      await withdrawApplication(later, applicationId);
      device.online();
      await allSent(again);
      expect(server.ctx.store.get('applications', applicationId)).toMatchObject({
        status: 'WITHDRAWN',
        budget: 400_00,
      });
      expect(await again.db.syncproblems.find().exec()).toEqual([]);
      expect((await later.local.get('applications', applicationId))?.status).toBe('WITHDRAWN');
    } finally {
      await again.close();
    }
  });
});

describe('a change that met a conflict, as the sync status and a logout count it', () => {
  /** A device whose pushes of gigs, once `holding`, wait for the test to let each one go. */
  async function deviceHoldingPushes(http: TestClient, userId: string) {
    let holding = false;
    const held: (() => void)[] = [];
    let pushes = 0;
    const network: typeof fetch = async (input, init) => {
      if (String(input).includes('/api/sync/gigs/push')) {
        pushes++;
        if (holding) await new Promise<void>((go) => held.push(go));
      }
      return fetch(input, init);
    };
    const device = await startNodeClient(http, userId, { fetch: network });
    return {
      device,
      hold: () => (holding = true),
      /** Lets the next held push go, once it is waiting. */
      async release() {
        await waitFor('a push held', () => held.length > 0, 10_000);
        held.shift()!();
      },
      /** Resolves once a push is held (without letting it go). */
      held: () => waitFor('a push held', () => held.length > 0, 10_000),
      /** Stops holding, and lets every held push go. */
      releaseAll() {
        holding = false;
        for (const go of held.splice(0)) go();
      },
      pushes: () => pushes,
    };
  }

  /**
   * A gig of a new user's, sent from their device; then renamed there, its push held, while
   * another device of theirs writes `elsewhere` to it. The next `release()` lets the rename go.
   */
  async function renamedWhileChangedElsewhere(
    gig: Record<string, unknown>,
    rename: string,
    elsewhere: Record<string, unknown>,
  ) {
    const http = new TestClient(server.url);
    const user = await signUpWithProfile(http);
    const holding = await deviceHoldingPushes(http, user.id);
    const { device } = holding;
    const id = gig.id as string;
    await device.app.local.insert('gigs', gig as never);
    await allSent(device);
    holding.hold();
    await device.app.local.modify('gigs', id, (g) => ({ ...g, title: rename }));
    const { _seq, ...current } = server.ctx.store.get('gigs', id)!;
    expect((await write(http, 'gigs', { ...current, ...elsewhere }, current)).refusal).toBeUndefined();
    return { ...holding, id };
  }

  it('a merge that must go out again stays counted as waiting until the server has taken it', async () => {
    // Renamed here; before the rename arrives, the description is changed on another device.
    const gig = gigDoc({ title: 'Studio portraits', description: 'Two hours in the studio.' });
    const { device, id, release, releaseAll } = await renamedWhileChangedElsewhere(gig, 'Studio portraits, renamed', {
      description: 'Three hours, two outfits.',
    });
    try {
      // The rename meets the new version: merged onto it, it has to go out again.
      await release();
      await release(); // the merge's push waits here…
      // …and while it does, the change is still waiting: a logout must not delete it.
      expect(device.outbox.count).toBe(1);
    } finally {
      releaseAll();
    }
    await allSent(device);
    expect(server.ctx.store.get('gigs', id)).toMatchObject({
      title: 'Studio portraits, renamed',
      description: 'Three hours, two outfits.',
    });
    expect(await device.db.syncproblems.count().exec()).toBe(0);
    await device.close();
  });

  it('an edit made while the push of the one before is on its way stays counted until its own push is answered', async () => {
    const http = new TestClient(server.url);
    const user = await signUpWithProfile(http);
    const { device, hold, release, held, releaseAll } = await deviceHoldingPushes(http, user.id);
    const gig = gigDoc({ title: 'Poster series' });
    const id = gig.id as string;
    await device.app.local.insert('gigs', gig as never);
    await allSent(device);
    hold();
    try {
      await device.app.local.modify('gigs', id, (g) => ({ ...g, title: 'Poster series, three prints' }));
      await held(); // the first rename's push waits…
      // …while the user renames it again.
      await device.app.local.modify('gigs', id, (g) => ({ ...g, title: 'Poster series, five prints' }));
      await release();
      // The first rename is answered; the second goes out next, and waits here. Until it is
      // answered it is still to send: a logout now must not delete it.
      await held();
      expect(device.outbox.count).toBe(1);
    } finally {
      releaseAll();
    }
    await allSent(device);
    expect(device.outbox.count).toBe(0);
    expect(server.ctx.store.get('gigs', id)?.title).toBe('Poster series, five prints');
    expect(await device.db.syncproblems.count().exec()).toBe(0);
    await device.close();
  });

  it("a change that lost to the server's version is no longer counted once resolved, with nothing more sent", async () => {
    const gig = gigDoc({ title: 'Album cover' });
    const { device, id, release, pushes } = await renamedWhileChangedElsewhere(gig, 'Album cover, here', {
      title: 'Album cover, elsewhere',
    });
    await release();

    // The server's title stands; the rename is kept as a sync problem, and nothing waits.
    await waitFor(
      'the rename kept as a problem',
      async () => (await device.db.syncproblems.count().exec()) === 1,
      10_000,
    );
    await waitFor('nothing waiting', () => device.outbox.count === 0, 10_000);
    await device.sync.awaitInSync();
    const sent = pushes();
    expect((await device.db.gigs.findOne(id).exec())?.title).toBe('Album cover, elsewhere');
    expect(device.outbox.count).toBe(0);
    expect(pushes()).toBe(sent);
    await device.close();
  });
});
