import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openJournalStore } from '../../sync-server/store/journal-store';
import type { Store, StoredDoc } from '../../sync-server/store/store';
import { CRASH_INDEXES, decodeChat } from '../support/store-writer-process';

/**
 * A store process is killed with SIGKILL at random moments while it commits from 64 concurrent
 * writers and snapshots every 40 lines. After each kill the folder must load, hold every write the
 * child reported as acknowledged, and hold each two-document commit entirely or not at all.
 */

const CHILD = fileURLToPath(new URL('../support/store-writer-process.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = 8;

type Acked = { pairs: Set<string>; versions: Map<string, number>; chat: Map<string, Set<number>>; snapshots: number };

const cleanup: string[] = [];
afterAll(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

/** Runs one child until it has acknowledged a random number of operations, then kills it. */
async function crashRound(dir: string, round: number, acked: Acked): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'crash', dir, String(round)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killAfter = 20 + Math.floor(Math.random() * 1500);
  let count = 0;
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const [kind, a, b] = line.split(' ');
      if (kind === 'p') acked.pairs.add(a!);
      else if (kind === 'u') acked.versions.set(a!, Math.max(acked.versions.get(a!) ?? 0, Number(b)));
      else if (kind === 'c') {
        if (!acked.chat.has(a!)) acked.chat.set(a!, new Set());
        acked.chat.get(a!)!.add(Number(b));
      } else if (kind === 's') acked.snapshots = Math.max(acked.snapshots, Number(a));
      else if (kind !== 'ready') throw new Error(`unexpected child output: ${line}`);
      if (kind !== 'ready' && kind !== 's' && ++count === killAfter) child.kill('SIGKILL');
    }
  });
  // Every line the child wrote before dying is in the pipe; 'close' comes after the last of it.
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (c, s) => resolve([c, s])),
  );
  if (signal !== 'SIGKILL') throw new Error(`child ended with ${code}/${signal} before the kill: ${stderr}`);
  return count;
}

function verify(store: Store, acked: Acked): void {
  const byPair = new Map<string, { side: string; v: number }[]>();
  const gigs: Iterable<StoredDoc> = store.all('gigs');
  for (const doc of gigs) {
    const pair = doc.pair as string;
    if (!byPair.has(pair)) byPair.set(pair, []);
    byPair.get(pair)!.push({ side: doc.id.slice(-1), v: doc.v as number });
  }
  // All or nothing: every pair present has both documents, at the same version.
  for (const [pair, docs] of byPair) {
    expect(docs.map((d) => d.side).sort(), pair).toEqual(['a', 'b']);
    expect(docs[0]!.v, pair).toBe(docs[1]!.v);
    expect(store.byIndex('gigs', 'pair', pair)).toHaveLength(2);
  }
  for (const pair of acked.pairs) expect(byPair.has(pair), `acknowledged pair ${pair}`).toBe(true);
  for (const [pair, v] of acked.versions)
    expect(byPair.get(pair)![0]!.v, `version of ${pair}`).toBeGreaterThanOrEqual(v);
  for (const [room, ids] of acked.chat) {
    const present = new Set(store.chatUpdates(room).flatMap(decodeChat));
    for (const id of ids) expect(present.has(id), `chat ${room} ${id}`).toBe(true);
  }
  // Everything loaded is durable, and every document appears once in the change feed.
  expect(store.changesSince(0, Infinity)).toHaveLength(byPair.size * 2);
}

describe('store under SIGKILL', () => {
  it('loses no acknowledged commit and loads after every kill', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'store-crash-'));
    cleanup.push(dir);
    const acked: Acked = { pairs: new Set(), versions: new Map(), chat: new Map(), snapshots: 0 };
    let total = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      total += await crashRound(dir, round, acked);
      // Checked on a copy, so the next child starts on exactly what the killed one left behind.
      const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'store-crash-copy-'));
      cleanup.push(copy);
      await fs.cp(dir, copy, { recursive: true });
      const store = await openJournalStore({
        dataDir: copy,
        indexes: CRASH_INDEXES,
        snapshotIntervalMs: 60_000,
        snapshotEveryCommits: 1e9,
      });
      try {
        verify(store, acked);
      } finally {
        await store.close();
        await fs.rm(copy, { recursive: true, force: true });
      }
    }
    const store = await openJournalStore({
      dataDir: dir,
      indexes: CRASH_INDEXES,
      snapshotIntervalMs: 60_000,
      snapshotEveryCommits: 1e9,
    });
    verify(store, acked);
    await store.close();
    expect(total).toBeGreaterThan(ROUNDS * 20);
    expect(acked.snapshots, 'snapshots taken while commits ran').toBeGreaterThan(0);
  });
});
