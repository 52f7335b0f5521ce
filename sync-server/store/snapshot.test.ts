import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncedJsonFile, jsonPieces } from './snapshot';

describe('snapshot file', () => {
  it('streams exactly what JSON.stringify writes', () => {
    const value = {
      format: 1,
      skipped: undefined,
      when: new Date(0),
      collections: {
        gigs: [
          { id: 'a', n: 1, nested: { x: [1, 'two', null] } },
          { id: 'b', s: 'q"uote\n' },
        ],
        empty: [],
      },
      chat: { 'room "1"': ['AAE='] },
      list: [1, undefined, 'x'],
    };
    for (const depth of [0, 1, 2, 3, 5]) expect([...jsonPieces(value, depth)].join('')).toBe(JSON.stringify(value));
  });

  it('writes through a synced temporary file, in chunks, and reads back', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'snapshot-test-'));
    try {
      const file = new SyncedJsonFile<{ docs: { id: number; pad: string }[] }>(path.join(dir, 'db.json'), 64);
      expect(await file.read()).toBeNull();
      const data = { docs: Array.from({ length: 100 }, (_, id) => ({ id, pad: 'x'.repeat(20) })) };
      await file.write(data);
      expect(await file.read()).toEqual(data);
      expect(await fs.readdir(dir)).toEqual(['db.json']);
      await fs.writeFile(path.join(dir, 'db.json'), '{"docs":[');
      await expect(file.read()).rejects.toThrow(/not valid JSON/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
