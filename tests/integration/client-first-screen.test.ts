import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTo, gigDoc, person, write, type Person } from '../support/fixtures';
import { startNodeClient } from '../support/node-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

/**
 * Issue 20: on a new device, the screen the user opened is drawn with its data before the rest of
 * the sync finishes: its collections are pulled first, the others after their first pass.
 */
const GIGS = 60;
const BATCH = 20;

let server: TestServer;
let buyer: Person;
beforeAll(async () => {
  server = await startTestServer();
  buyer = await person(server.url);
  const applicant = await person(server.url);
  for (let i = 0; i < GIGS; i++) {
    const { refusal, master } = await write(buyer.http, 'gigs', gigDoc({ title: `Gig number ${i}` }));
    if (refusal || !master) throw new Error(`gig refused: ${refusal}`);
    // Applications to the first few: the buyer's notifications (one per application).
    if (i < 3) await applyTo(applicant, master.id as string);
  }
});
afterAll(async () => {
  await server.cleanup();
});

/** The collection of each pull the device sent, in order, and whether it was the last of its pass. */
function recordingPulls() {
  const pulls: string[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const m = /\/api\/sync\/(\w+)\/pull/.exec(String(input));
    if (m) pulls.push(m[1]!);
    return fetch(input, init);
  };
  return { pulls, fetchFn };
}

describe("a new device's first sync", () => {
  it("pulls the opened screen's collections first, then the rest, and ends with everything", async () => {
    const { pulls, fetchFn } = recordingPulls();
    const client = await startNodeClient(buyer.http, buyer.user.id, {
      fetch: fetchFn,
      batchSize: BATCH,
      firstCollections: ['notifications'],
    });
    // The status a screen reads: the notifications' first pass is done before the whole sync is,
    // with every notification stored by then.
    let whenNotificationsPassed: { done: boolean; stored: Promise<number> } | undefined;
    const sub = client.sync.status$.subscribe((status) => {
      if (whenNotificationsPassed || !status.firstPassed.includes('notifications')) return;
      whenNotificationsPassed = { done: status.initialSync.done, stored: client.db.notifications.count().exec() };
    });
    try {
      await waitFor('up to date', () => client.sync.status.initialSync.done, 15_000);
      expect(whenNotificationsPassed?.done).toBe(false);
      expect(await whenNotificationsPassed?.stored).toBe(3);
      expect(new Set(client.sync.status.firstPassed)).toEqual(
        new Set(['users', 'gigs', 'applications', 'notifications', 'conversations', 'reviews']),
      );
      expect(await client.db.gigs.count().exec()).toBe(GIGS);
      expect(await client.db.notifications.count().exec()).toBe(3);
      // Nothing else was asked for before the notifications' first pass was over.
      const firstOther = pulls.findIndex((c) => c !== 'notifications');
      expect(firstOther).toBeGreaterThan(0);
      expect(pulls.slice(0, firstOther).every((c) => c === 'notifications')).toBe(true);
      expect(new Set(pulls)).toEqual(
        new Set(['users', 'gigs', 'applications', 'notifications', 'conversations', 'reviews']),
      );
    } finally {
      sub.unsubscribe();
      await client.close();
    }
  });

  it('without a screen to favour, every collection starts at once', async () => {
    const { pulls, fetchFn } = recordingPulls();
    const client = await startNodeClient(buyer.http, buyer.user.id, { fetch: fetchFn, batchSize: BATCH });
    try {
      await waitFor('up to date', () => client.sync.status.initialSync.done, 15_000);
      // The six first pulls went out together, one per collection.
      expect(new Set(pulls.slice(0, 6)).size).toBe(6);
      expect(await client.db.gigs.count().exec()).toBe(GIGS);
    } finally {
      await client.close();
    }
  });
});
