import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../sync-server/context';
import type { CollectionName } from '../../sync-server/store/store';
import { chatLogOf } from './store-under-test';

/**
 * The store's whole state, to compare before and after a request the server should have refused:
 * every document of every collection (tombstones, sessions, credentials and ledger included),
 * the durable sequence, the journal's line count, the named chat rooms' logs and the data files'
 * sizes. Documents are serialised one by one, so an in-place change of a stored object (one that
 * never went through `commit`) shows too.
 *
 * Give the server a long SNAPSHOT_INTERVAL_MS: a background snapshot rewrites db.json and cuts
 * the journal without any request, and would show as a difference in the files.
 */
export type StoreState = {
  seq: number;
  journalLines: number | undefined;
  documents: Map<string, string>;
  chat: Map<string, string>;
  files: Map<string, number>;
};

const COLLECTIONS: CollectionName[] = [
  'users',
  'portfolios',
  'gigs',
  'applications',
  'notifications',
  'conversations',
  'reviews',
  'usernames',
  'credentials',
  'sessions',
  'waitlist',
  'ledger',
  'meta',
  'pushsubscriptions',
  'pushsends',
];

type Snapshottable = { ctx: AppContext; dataDir: string };

export async function snapshotStore(server: Snapshottable, rooms: readonly string[] = []): Promise<StoreState> {
  const { store } = server.ctx;
  const documents = new Map<string, string>();
  for (const collection of COLLECTIONS) {
    for (const doc of store.all(collection)) documents.set(`${collection}/${doc.id}`, JSON.stringify(doc));
  }
  const chat = new Map<string, string>();
  for (const room of rooms) {
    const hash = crypto.createHash('sha256');
    const updates = await chatLogOf(store, room);
    for (const u of updates) hash.update(u);
    chat.set(room, `${updates.length}:${hash.digest('base64')}`);
  }
  const files = new Map<string, number>();
  for (const name of await fs.readdir(server.dataDir)) {
    if (name === 'LOCK') continue; // rewritten by the lock's heartbeat, not by requests
    const stat = await fs.stat(path.join(server.dataDir, name)).catch(() => undefined);
    if (stat?.isFile()) files.set(name, stat.size);
  }
  const stats = (store as { stats?: () => { journalLines: number } }).stats;
  return { seq: store.durableSeq(), journalLines: stats?.call(store).journalLines, documents, chat, files };
}

/** What differs between two states, in a few words for a test failure; undefined when identical. */
export function storeDifference(before: StoreState, after: StoreState): string | undefined {
  const out: string[] = [];
  if (before.seq !== after.seq) out.push(`sequence ${before.seq} → ${after.seq}`);
  if (before.journalLines !== after.journalLines)
    out.push(`journal lines ${before.journalLines} → ${after.journalLines}`);
  const changed = (a: Map<string, unknown>, b: Map<string, unknown>, what: string) => {
    const keys = new Set([...a.keys(), ...b.keys()]);
    const diff = [...keys].filter((k) => a.get(k) !== b.get(k));
    if (diff.length)
      out.push(
        `${what} changed: ${diff.slice(0, 5).join(', ')}${diff.length > 5 ? ` and ${diff.length - 5} more` : ''}`,
      );
  };
  changed(before.documents, after.documents, 'documents');
  changed(before.chat, after.chat, 'chat logs');
  changed(before.files, after.files, 'data files');
  return out.length ? out.join('; ') : undefined;
}
