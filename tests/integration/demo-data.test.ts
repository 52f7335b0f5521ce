import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIG_JITTER_MS, generateDataDir, openDataDirStore, startOfUtcDay } from '../../bench/data/generate';
import { DAY_MS } from '../../shared/constants';
import type { JournalStore } from '../../sync-server/store/journal-store';
import type { CollectionName } from '../../sync-server/store/store';

// `npm run demo` and the benchmarks' data (bench/data/generate.ts): a marketplace whose history
// ends at the moment it is generated for. Someone signing in to the demo sees nothing dated later
// (an application "just now" that the list dates this afternoon, an offer accepted tomorrow).

const NOW = startOfUtcDay(Date.UTC(2026, 10, 20, 15));
/** Collections whose times are history; sessions expire and timers fire later by design. */
const HISTORY: CollectionName[] = [
  'users',
  'gigs',
  'applications',
  'notifications',
  'conversations',
  'reviews',
  'ledger',
];
const TIME_FIELDS = [
  'createdAt',
  'updatedAt',
  'lastMessageTimestamp',
  'appliedAt',
  'startedAt',
  'paymentConfirmedAt',
  'deliveredAt',
  'completedAt',
  'submittedAt',
  'decidedAt',
  'settledAt',
  'refundedAt',
];

let dir: string;
let store: JournalStore;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-data-'));
  await generateDataDir(dir, { gigs: 400, seed: 7, now: NOW });
  store = await openDataDirStore(dir);
}, 120_000);

afterAll(async () => {
  await store?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('the generated marketplace', () => {
  it('dates nothing after the moment it was generated for, and its last days are busy', () => {
    const late: string[] = [];
    let recent = 0;
    for (const collection of HISTORY) {
      for (const doc of store.all(collection)) {
        for (const field of TIME_FIELDS) {
          const value = (doc as Record<string, unknown>)[field];
          if (typeof value !== 'number') continue;
          if (value > NOW + GIG_JITTER_MS + 1_000) late.push(`${collection} ${doc.id} ${field} +${value - NOW} ms`);
          if (collection === 'applications' && field === 'appliedAt' && value > NOW - 2 * DAY_MS) recent++;
        }
      }
    }
    expect(late).toEqual([]);
    // The newest gigs still have their follow-up, sooner: applications in the last two days.
    expect(recent).toBeGreaterThan(0);
  });
});
