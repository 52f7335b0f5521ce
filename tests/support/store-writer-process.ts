/**
 * A child process for the store's crash and lock tests:
 *
 *   node --import tsx tests/support/store-writer-process.ts hold <dir>
 *     opens the store, prints "locked", and keeps it open until stdin closes.
 *   node --import tsx tests/support/store-writer-process.ts crash <dir> <round>
 *     commits without pause from many concurrent writers and prints one line per acknowledged
 *     operation, to be killed at a random moment by the test:
 *       p <pair>        both documents <pair>-a and <pair>-b were created in one commit
 *       u <pair> <v>    both documents of <pair> were set to version v in one commit
 *       c <room> <n>    chat update n was appended to <room>
 *       s <count>       snapshots taken so far (so the test can tell they happened mid-run)
 */
import { openJournalStore } from '../../sync-server/store/journal-store';
import type { IndexDefinitions } from '../../sync-server/store/store';

export const CRASH_INDEXES: IndexDefinitions = {
  gigs: { pair: (d) => (typeof d.pair === 'string' ? d.pair : undefined) },
};

/** A chat update of the crash test: the numbers it stands for, as JSON bytes (a merge concatenates them). */
export function encodeChat(ids: number[]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(ids));
}

export function decodeChat(update: Uint8Array): number[] {
  return JSON.parse(new TextDecoder().decode(update)) as number[];
}

async function main(): Promise<void> {
  const [mode, dir, round = '0'] = process.argv.slice(2);
  if (!dir || (mode !== 'hold' && mode !== 'crash'))
    throw new Error('usage: store-writer-process.ts hold|crash <dir> [round]');
  const store = await openJournalStore({
    dataDir: dir,
    indexes: CRASH_INDEXES,
    snapshotIntervalMs: 100,
    snapshotEveryCommits: 40,
  });
  const print = (line: string) => process.stdout.write(`${line}\n`);

  if (mode === 'hold') {
    print('locked');
    process.stdin.resume();
    process.stdin.on('end', () => void store.close().then(() => process.exit(0)));
    return;
  }

  const room = `room-${round}`;
  const versions = new Map<string, number>();
  const acked: string[] = [];
  let next = 0;
  let snapshots = 0;

  const step = async (): Promise<void> => {
    const n = next++;
    const pick = Math.random();
    if (pick < 0.6 || acked.length === 0) {
      const pair = `r${round}-${n}`;
      versions.set(pair, 0);
      await store.commit(['a', 'b'].map((side) => ({ collection: 'gigs', doc: doc(pair, side, 0) })));
      acked.push(pair);
      print(`p ${pair}`);
    } else if (pick < 0.85) {
      const pair = acked[Math.floor(Math.random() * acked.length)]!;
      const v = versions.get(pair)! + 1;
      versions.set(pair, v);
      await store.commit(['a', 'b'].map((side) => ({ collection: 'gigs', doc: doc(pair, side, v) })));
      print(`u ${pair} ${v}`);
    } else if (pick < 0.97) {
      await store.appendChatUpdate(room, encodeChat([n]));
      print(`c ${room} ${n}`);
    } else {
      // Reading and compacting in one synchronous step, as a chat server would.
      await store.compactChat(room, encodeChat(store.chatUpdates(room).flatMap(decodeChat)));
    }
    const taken = store.stats().snapshots;
    if (taken !== snapshots) print(`s ${(snapshots = taken)}`);
  };

  print('ready');
  const writers = Array.from({ length: 64 }, async () => {
    for (;;) await step();
  });
  await Promise.all(writers);
}

function doc(pair: string, side: string, v: number) {
  return { id: `${pair}-${side}`, pair, v, _deleted: false, padding: 'x'.repeat(200) };
}

if (process.argv[1]?.endsWith('store-writer-process.ts')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
