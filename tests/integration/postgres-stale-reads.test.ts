import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataContextValue } from '../../client/data/data-provider';
import { LocalData } from '../../client/data/local-data';
import { saveProfileFields } from '../../client/features/profile/profile-writes';
import type { Change } from '../../sync-server/store/store';
import { gigDoc, signUpWithProfile, write } from '../support/fixtures';
import { startNodeClient, type NodeAppClient } from '../support/node-client';
import { startInstances, type Instances } from '../support/postgres/instances';
import { waitFor } from '../support/wait';

/**
 * A device on several instances (decision 023) hears of a document through two doors: the answer
 * to its own push, from the instance that took it, and the change stream and pulls, from another
 * instance whose replica may be a few milliseconds behind. The second door can then hand the
 * device a version older than the one the first already gave it. Taken, that older version undid
 * the user's acknowledged profile edit on the screen, and the next edit of another field sent the
 * old value back to the server for good (convergence seed 558114 on PostgreSQL: a name edit
 * neither on the server nor kept as a sync problem).
 *
 * Here the lag is made to order: instance B's replica hears of the feed only when the test hands
 * it a batch, so the device's stream (on B) delivers exactly the stale version the race produced.
 */

type Feed = { fromFeed(changes: Change[]): void };

let cluster: Instances;
beforeAll(async () => {
  cluster = await startInstances(2);
});
afterAll(async () => {
  await cluster?.close();
});

describe('a stale read from a lagging instance', () => {
  let device: NodeAppClient | undefined;
  afterAll(async () => {
    await device?.close();
  });

  it('never takes a device back to an older version: an acknowledged profile edit stays, on the screen and on the server', async () => {
    const [a, b] = cluster.servers as [(typeof cluster.servers)[0], (typeof cluster.servers)[0]];
    const http = cluster.on(0);
    const fay = await signUpWithProfile(http, { name: 'Fay Before' });
    // The device's pushes reach instance A; its pulls and its change stream reach instance B.
    const viaB: typeof fetch = (input, init) => {
      const url = String(input);
      return fetch(url.includes('/push') ? url : url.replace(cluster.urls[0]!, cluster.urls[1]!), init);
    };
    device = await startNodeClient(http, fay.id, { fetch: viaB });
    const local = new LocalData(device.db, device.outbox);
    const app = { local, userId: fay.id } as DataContextValue;
    await device.sync.awaitInSync();
    await waitFor("Fay's profile on her device", () => device!.db.users.findOne(fay.id).exec(), 10_000);

    // From here B's replica hears of the feed only batch by batch, when the test says.
    const feedB = b.ctx.store as unknown as Feed;
    const deliver = feedB.fromFeed.bind(feedB);
    const held: Change[][] = [];
    feedB.fromFeed = (changes) => void held.push(changes);
    const heldBatch = (what: string, test: (c: Change) => boolean) =>
      waitFor(`B's feed reading ${what}`, () => held.find((batch) => batch.some(test)), 10_000);
    const onDevice = async () => (await device!.db.users.findOne(fay.id).exec())?.toJSON();
    const acknowledged = (test: (u: Record<string, unknown>) => boolean) =>
      waitFor(
        'the edit acknowledged on the device',
        async () => {
          const u = await onDevice();
          return device!.outbox.count === 0 && u && test(u as Record<string, unknown>) ? u : undefined;
        },
        10_000,
      );

    // Two edits, each acknowledged by A; B's feed has read both versions but applied neither.
    await saveProfileFields(app, { bio: 'Painter of harbours.' });
    await acknowledged((u) => u.bio === 'Painter of harbours.' && a.ctx.store.get('users', fay.id)?.bio === u.bio);
    const older = await heldBatch('the bio edit', (c) => c.doc.id === fay.id && c.doc.bio === 'Painter of harbours.');
    await saveProfileFields(app, { name: 'Fay After' });
    await acknowledged((u) => u.name === 'Fay After' && a.ctx.store.get('users', fay.id)?.name === 'Fay After');
    await heldBatch('the name edit', (c) => c.doc.id === fay.id && c.doc.name === 'Fay After');

    // B applies only the older version and streams it to the device, then a later gig of someone
    // else: once the device holds that gig, it has handled the older version before it.
    deliver(older);
    const ben = cluster.on(0);
    await signUpWithProfile(ben, { name: 'Ben Marker' });
    const marker = gigDoc({ title: 'Marker after the stale version' });
    expect((await write(ben, 'gigs', marker)).refusal).toBeUndefined();
    deliver(await heldBatch('the marker gig', (c) => c.doc.id === marker.id));
    await waitFor('the marker gig on the device', () => device!.db.gigs.findOne(String(marker.id)).exec(), 10_000);
    expect((await onDevice())?.name).toBe('Fay After');

    // Her next edit, of another field, goes out on top of what she sees.
    await saveProfileFields(app, { location: 'GB' });
    await acknowledged((u) => u.location === 'GB' && a.ctx.store.get('users', fay.id)?.location === 'GB');
    expect(a.ctx.store.get('users', fay.id)).toMatchObject({
      name: 'Fay After',
      bio: 'Painter of harbours.',
      location: 'GB',
    });

    // B catches up with everything held; the device ends where the server is.
    feedB.fromFeed = deliver;
    for (const batch of held.splice(0)) deliver(batch);
    await waitFor(
      "the device at the server's version",
      async () => {
        const u = await onDevice();
        return u?.updatedAt === a.ctx.store.get('users', fay.id)?.updatedAt ? u : undefined;
      },
      10_000,
    );
    expect(await onDevice()).toMatchObject({ name: 'Fay After', bio: 'Painter of harbours.', location: 'GB' });
    expect(await device.db.syncproblems.find().exec()).toEqual([]);
  }, 60_000);
});
