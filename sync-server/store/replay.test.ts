import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replayJournal, type JournalEntry } from './replay';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

async function journalDir(files: Record<string, Buffer | string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'replay-test-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(dir, name), content);
  return dir;
}

const line = (lsn: number) => `{"lsn":${lsn},"chat":"room","append":"AQI="}\n`;
const zeros = (n: number) => Buffer.alloc(n);
const join = (...parts: (string | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

async function replay(dir: string) {
  const seen: number[] = [];
  const result = await replayJournal(dir, 0, (e: JournalEntry) => seen.push(e.lsn));
  return { seen, ...result };
}

describe('journal replay', () => {
  it('takes zeros after the lines as the end of a file, in the last file and before it', async () => {
    const dir = await journalDir({
      'journal-1.jsonl': join(line(1), line(2), zeros(4096)),
      'journal-3.jsonl': join(line(3), zeros(8192)),
    });
    const { seen, tail, truncatedBytes, lineBytes } = await replay(dir);
    expect(seen).toEqual([1, 2, 3]);
    expect(truncatedBytes).toBe(0);
    expect(lineBytes).toBe(line(1).length * 3);
    expect(tail).toMatchObject({ firstLsn: 3, end: line(3).length, size: line(3).length + 8192 });
    // Nothing was cut: the zeros stay for the next lines.
    expect((await fs.stat(path.join(dir, 'journal-3.jsonl'))).size).toBe(line(3).length + 8192);
  });

  it('cuts a torn line before the zeros of the last file', async () => {
    const torn = '{"lsn":3,"chat":"ro';
    const dir = await journalDir({ 'journal-1.jsonl': join(line(1), line(2), torn, zeros(4096)) });
    const { seen, tail, truncatedBytes } = await replay(dir);
    expect(seen).toEqual([1, 2]);
    expect(truncatedBytes).toBe(torn.length + 4096);
    expect(tail).toMatchObject({ end: line(1).length * 2, size: line(1).length * 2 });
    expect(await fs.readFile(path.join(dir, 'journal-1.jsonl'), 'utf8')).toBe(line(1) + line(2));
  });

  it('cuts the last file at zeros followed by more of a write (its first page lost in a crash)', async () => {
    const dir = await journalDir({ 'journal-1.jsonl': join(line(1), zeros(4096), line(2).slice(5), zeros(100)) });
    const { seen, tail } = await replay(dir);
    expect(seen).toEqual([1]);
    expect(tail).toMatchObject({ end: line(1).length, size: line(1).length });
  });

  it('refuses zeros followed by anything else in a file before the last', async () => {
    const dir = await journalDir({
      'journal-1.jsonl': join(line(1), zeros(10), line(2)),
      'journal-3.jsonl': line(3),
    });
    await expect(replay(dir)).rejects.toThrow(/journal-1\.jsonl is damaged at line 2 \(unreadable line\)/);
  });
});
