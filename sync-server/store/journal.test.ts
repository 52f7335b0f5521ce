import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JournalWriter, listJournalFiles, type JournalFile } from './journal';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'journal-test-'));
  dirs.push(dir);
  return dir;
}

/** A new, empty journal file in a temporary folder. */
async function tempJournal() {
  const file = path.join(await tempDir(), 'journal-1.jsonl');
  return { file, handle: await fs.open(file, 'w') };
}

/** A writer on `handle` (the file `file`) keeping 4 KiB of zeros ahead of its lines. */
function writerWithZeros(file: string, handle: JournalFile): JournalWriter<number> {
  return new JournalWriter<number>({
    dir: path.dirname(file),
    file: handle,
    firstLsn: 1,
    preallocate: 4096,
    onDurable: () => {},
  });
}

/** A journal file whose sync fails on demand. */
function fakeFile(log: string[], failSync: () => boolean): JournalFile {
  return {
    write: (async (buffer: Buffer, offset = 0, length = buffer.length - offset) => {
      log.push(buffer.toString('utf8', offset, offset + length));
      return { bytesWritten: length, buffer };
    }) as JournalFile['write'],
    datasync: async () => {
      if (failSync()) throw new Error('EIO: i/o error, fdatasync');
    },
    close: async () => undefined,
  };
}

describe('journal writer', () => {
  it('groups lines queued during a sync into the next write and sync, in order', async () => {
    const writes: string[] = [];
    const durable: number[][] = [];
    const writer = new JournalWriter<number>({
      dir: '/nonexistent',
      file: fakeFile(writes, () => false),
      firstLsn: 1,
      preallocate: 0,
      onDurable: (p) => durable.push(p),
    });
    const first = writer.append('1\n', 1);
    const second = writer.append('2\n', 2); // same tick: same batch
    await new Promise((resolve) => setImmediate(resolve)); // the first write has started
    const rest = [3, 4, 5].map((n) => writer.append(`${n}\n`, n)); // while the first sync runs
    await Promise.all([first, second, ...rest]);
    expect(writes).toEqual(['1\n2\n', '3\n4\n5\n']);
    expect(durable).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(writer.syncs).toBe(2);
  });

  it('rejects the failed batch and everything after it once a sync fails', async () => {
    let fail = false;
    const writer = new JournalWriter<number>({
      dir: '/nonexistent',
      file: fakeFile([], () => fail),
      firstLsn: 1,
      preallocate: 0,
      onDurable: () => undefined,
    });
    await writer.append('1\n', 1);
    fail = true;
    const broken = writer.append('2\n', 2);
    const queued = writer.append('3\n', 3);
    await expect(broken).rejects.toThrow(/journal could not be written \(EIO/);
    await expect(queued).rejects.toThrow(/journal could not be written/);
    fail = false;
    await expect(writer.append('4\n', 4)).rejects.toThrow(/restart the server/);
    expect(writer.failed?.message).toMatch(/EIO/);
  });

  it('rotates to a new file after the lines queued before the rotation', async () => {
    const dir = await tempDir();
    const file = await fs.open(path.join(dir, 'journal-1.jsonl'), 'w');
    const writer = new JournalWriter<number>({ dir, file, firstLsn: 1, onDurable: () => undefined });
    const done = [writer.append('1\n', 1), writer.append('2\n', 2), writer.rotate(3), writer.append('3\n', 3)];
    await Promise.all(done);
    await writer.rotate(3); // already there: no-op
    await writer.close();
    const files = await listJournalFiles(dir);
    expect(files.map((f) => f.firstLsn)).toEqual([1, 3]);
    expect(await fs.readFile(files[0]!.file, 'utf8')).toBe('1\n2\n');
    expect(await fs.readFile(files[1]!.file, 'utf8')).toBe('3\n');
  });

  it('writes a small batch on the main thread once the disk has answered fast, and a larger one off it', async () => {
    const { file, handle } = await tempJournal();
    let pooled = 0; // writes handed to libuv's pool (the file handle's own write)
    let slowSync = false;
    const observed: JournalFile = {
      fd: handle.fd,
      write: ((...args: Parameters<JournalFile['write']>) => {
        pooled++;
        return handle.write(...args);
      }) as JournalFile['write'],
      datasync: async () => {
        if (slowSync) await new Promise((resolve) => setTimeout(resolve, 300));
        await handle.datasync();
      },
      close: () => handle.close(),
    };
    // "Fast" is under 250 ms here, so that a busy test machine's syncs count as fast; "small" is
    // one line of two bytes.
    const writer = new JournalWriter<number>({
      dir: path.dirname(file),
      file: observed,
      firstLsn: 1,
      onDurable: () => {},
      inlineMaxBytes: 2,
      inlineMaxSyncMs: 250,
      preallocate: 0, // counts only the lines' writes
    });
    await writer.append('1\n', 1); // the disk's speed is not known yet: off the main thread
    expect(pooled).toBe(1);
    await writer.append('2\n', 2); // alone, and the last sync was fast: inline
    expect(pooled).toBe(1);
    await Promise.all([writer.append('3\n', 3), writer.append('4\n', 4)]); // larger: one pooled write
    expect(pooled).toBe(2);
    slowSync = true;
    await Promise.all([writer.append('5\n', 5), writer.append('6\n', 6)]); // a slow sync…
    slowSync = false;
    await writer.append('7\n', 7); // …and the next line alone is not waited on inline
    expect(pooled).toBe(4);
    await writer.append('8\n', 8); // that sync was fast again
    expect(pooled).toBe(4);
    expect(writer.syncs).toBe(6);
    await writer.close();
    expect(await fs.readFile(file, 'utf8')).toBe('1\n2\n3\n4\n5\n6\n7\n8\n');
  });

  it('writes lines into zeros already written ahead of them, and closes without the zeros', async () => {
    const { file, handle } = await tempJournal();
    const writer = writerWithZeros(file, handle);
    await writer.append('1\n', 1);
    // The first step of zeros was written (from the open on) and synced: the file's size stays.
    await vi.waitFor(async () => expect((await fs.stat(file)).size).toBe(4096));
    await writer.append('2\n', 2);
    expect((await fs.stat(file)).size).toBe(4096);
    const bytes = await fs.readFile(file);
    expect(bytes.toString('utf8', 0, 4)).toBe('1\n2\n');
    expect(bytes.subarray(4).every((b) => b === 0)).toBe(true);
    // Less than half a step left: the next step is written in the background, lines go on.
    const long = 'x'.repeat(2100) + '\n';
    await writer.append(long, 3);
    await vi.waitFor(async () => expect((await fs.stat(file)).size).toBe(4096 * 2));
    // A batch larger than the space left waits for the zeros, then goes past them.
    await Promise.all([4, 5, 6].map((n) => writer.append(long, n)));
    await writer.close();
    const text = await fs.readFile(file, 'utf8');
    expect(text).toBe('1\n2\n' + long.repeat(4));
  });

  it('goes on writing lines when the zeros cannot be written', async () => {
    const { file, handle } = await tempJournal();
    let zeroWrites = 0;
    const full: JournalFile = {
      fd: handle.fd,
      write: ((buffer: Buffer, ...rest: [number, number, number]) => {
        if (buffer.every((b) => b === 0)) {
          zeroWrites++;
          return Promise.reject(new Error('ENOSPC: no space left on device, write'));
        }
        return handle.write(buffer, ...rest);
      }) as JournalFile['write'],
      datasync: () => handle.datasync(),
      truncate: (n) => handle.truncate(n),
      close: () => handle.close(),
    };
    const writer = writerWithZeros(file, full);
    await Promise.all([1, 2, 3].map((n) => writer.append(`${n}\n`, n)));
    await writer.append('4\n', 4);
    expect(zeroWrites).toBeGreaterThan(0);
    expect(writer.failed).toBeUndefined();
    await writer.close();
    expect(await fs.readFile(file, 'utf8')).toBe('1\n2\n3\n4\n');
  });
});
